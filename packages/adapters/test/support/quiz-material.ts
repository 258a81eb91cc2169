import type { QuestionInput } from "@tks/adapters/questions/port"

/**
 * Lesson material for the question generators: two short pieces (a
 * deployment guide and a safety guide, as in the acme test organization) and
 * a longer travel policy with numbers, days and items of every kind.
 */
export const deploymentAndSafety: QuestionInput = {
  title: "Onboarding",
  chapters: [
    {
      headline: "Rolling out",
      text:
        "Every release follows the rollout checklist. The canary step sends 5% of traffic to the new version for 30 minutes."
    },
    { headline: "Hotfixes", text: "A hotfix must be reviewed by a second engineer before it ships." },
    { headline: "Fire drills", text: "Fire drills happen twice a year. The fire warden leads everyone to the assembly point." },
    { headline: "First aid", text: "First aid kits are kept next to every exit." }
  ],
  items: [
    { name: "Rollout checklist", kind: "process", body: null, topicId: "top_deploy" },
    { name: "Canary step", kind: "process", body: null, topicId: "top_deploy" },
    { name: "hotfix policy", kind: "policy", body: null, topicId: "top_deploy" },
    { name: "Fire drill", kind: "process", body: null, topicId: "top_safety" },
    { name: "First aid", kind: "fact", body: null, topicId: "top_safety" }
  ],
  difficulty: "MODERATE",
  count: 5,
  seed: "enr_one"
}

export const travelPolicy: QuestionInput = {
  title: "Travel policy",
  chapters: [
    {
      headline: "Booking",
      text: [
        "Every trip is booked through the travel portal at least 14 days before departure.",
        "",
        "Economy class is required for flights shorter than 6 hours. The finance team approves any business class ticket.",
        "",
        "Hotel stays are capped at 180 euros per night in most cities."
      ].join("\n")
    },
    {
      headline: "Expenses",
      text: [
        "Receipts must be uploaded within 30 days of returning. Expense reports are paid on Friday each week.",
        "",
        "Meals are reimbursed up to 60 euros per day. Alcohol is never reimbursed.",
        "",
        "The corporate card covers taxis, trains and parking."
      ].join("\n")
    },
    {
      headline: "Safety",
      text:
        "Travellers register their itinerary with the security desk. The emergency line answers at 08:00 every morning and in the evening. Travel to high-risk countries needs approval from the Chief Operating Officer."
    }
  ],
  items: [
    { name: "Travel portal", kind: "process", body: "Book every trip through the travel portal.", topicId: "top_booking" },
    { name: "Economy class rule", kind: "policy", body: "Economy class is required for short flights.", topicId: "top_booking" },
    { name: "Hotel cap", kind: "fact", body: "Hotel stays are capped per night.", topicId: "top_booking" },
    { name: "Receipts", kind: "policy", body: "Receipts must be uploaded within a month.", topicId: "top_expenses" },
    { name: "Corporate card", kind: "fact", body: "The card covers local transport.", topicId: "top_expenses" },
    { name: "Itinerary registration", kind: "process", body: "Register each itinerary with security.", topicId: "top_safety" }
  ],
  difficulty: "MODERATE",
  count: 8,
  seed: "enr_two"
}
