/**
 * A small handbook for processing tests. With the test extractor
 * (test-extractor.ts) it yields 4 chapters, 3 topics (operations, finance,
 * health-safety) and 9 items with one evidence each; one bullet is
 * unfindable and dropped, and the "Hotels" bullet has doubled spaces, so its
 * quote is found only ignoring whitespace.
 */
export const travelHandbook = `# Travel and Expenses Handbook

This handbook explains how staff travel and claim expenses. It applies to everyone.

## Booking travel
Category: operations

- Approval: Every trip must be approved by a manager before booking.
- How to book: Use the travel portal to book flights and hotels.
  - Flights: Economy class is the default for flights under six hours.
  - Hotels: Hotels are booked  through the portal   at the negotiated rate.
- Ghost rule [unfindable]: This rule is quoted wrongly by the extractor.

## Expense claims
Category: finance

- Receipts: Receipts must be attached to every expense claim.
- Deadline: Expense claims are submitted within 30 days of the expense.
- Per diem: The daily meal allowance is 45 euros when travelling.

## Travel safety
Category: health-safety

- Emergency line: The emergency travel line answers around the clock.
- Safety upgrades: Travel booked for safety reasons may be upgraded.
`

export const handbookTopics = ["Booking travel", "Expense claims", "Travel safety"] as const
export const handbookItemCount = 9
export const handbookChapterCount = 4
