import type { ExtractionChapter, ExtractionInput } from "@tks/adapters/extraction/port"

/** Realistic multi-section documents for the extraction tests. */
export const expensePolicy = `# Travel and Expense Policy

This policy explains how Acme Corp reimburses business expenses. It applies to all employees and contractors who travel or spend money on behalf of the company.

## Submitting expenses

Employees must submit every expense claim within 30 days of purchase. Claims are filed in Expensify with an itemized receipt attached.
Receipts are required for any expense over $25.

To file a claim:

1. Open Expensify and choose **New report**.
2. Attach a photo of each receipt.
3. Select the cost center of your team.
4. Submit the report to your manager for approval.

## Approval limits

Managers may approve claims up to $2,500. Claims above $2,500 must be approved by the Finance Director. The finance team reimburses approved claims on the 15th of each month.

## Travel

Economy class is the standard for flights under 6 hours. Employees should book hotels through Navan, the company travel tool. Alcohol is never reimbursed.

A per diem is a fixed daily allowance for meals while traveling. The per diem is 60 EUR in Germany and 75 USD in the United States.
`

export const securityStandard = `# Information Security Standard

The security team owns this standard. It protects company data, laptops and accounts against phishing, malware and theft.

## Passwords and authentication

All accounts must use multi-factor authentication (MFA). Passwords must be at least 14 characters long and must never be reused across services.
Shared accounts are prohibited.

## Devices

- Lock your screen whenever you leave your laptop.
- Laptops must have full-disk encryption enabled.
- Install security patches within 7 days of release.

\`\`\`
sudo fdesetup enable   # code: this line must not become knowledge
\`\`\`

## Reporting incidents

Report suspected phishing emails to [the security desk](mailto:security@example.com) within one hour. The incident response team is on call 24 hours a day.
`

export const onboardingRunbook = `# New Hire Onboarding Runbook

This runbook guides managers and new hires through the first week at Acme.

## Before day one

The hiring manager prepares the workspace before the start date. IT ships the laptop five business days before day one.

1. Create the employee record in Workday.
2. Request a laptop from IT.
3. Invite the new hire to the team channel.

## First day

Welcome the new hire at reception at 9:00. Then walk through the handbook together.

1. Collect the signed contract and tax forms.
2. Set up the laptop and sign in with SSO.
3. Enroll in health benefits within 30 days.

## First week

The buddy meets the new hire every day during the first week. Every new hire should finish the compliance training by Friday.
`

/** Chapters as the pipeline makes them: one per heading line, ranges into the markdown. */
export const chaptersOf = (markdown: string): Array<ExtractionChapter> => {
  const starts = [...markdown.matchAll(/^#{1,6} .*$/gm)].map((match) => ({ at: match.index, line: match[0] }))
  return starts.map(({ at, line }, index) => {
    const end = starts[index + 1]?.at ?? markdown.length
    return { sequence: index, headline: line.replace(/^#+ /, ""), text: markdown.slice(at, end), start: at, end }
  })
}

export const inputOf = (markdown: string, title = "Uploaded document"): ExtractionInput => ({
  title,
  markdown,
  chapters: chaptersOf(markdown)
})
