/**
 * A demo document (finance): what the company pays for when people travel
 * and spend on its behalf, and how claims are approved.
 */
export const expenseTravelPolicy = `# Expense and Travel Policy

This policy explains which business expenses Acme Logistics pays for, how travel is booked, and how expenses are claimed and approved. It applies to all employees and to contractors whose contract says so. The finance team owns the policy and reviews it every January; questions go to finance@acme-logistics.example.

## Principles

Spend the company's money as if it were your own. An expense is reimbursed when it was necessary for the business, reasonable in amount and supported by a receipt. Three rules apply to every claim:

- You must never claim an expense twice, or claim for something already paid with a corporate card.
- You must never approve your own expenses, or expenses of someone who approves yours.
- Receipts must always show the supplier, the date, the amount and the VAT.

## Booking travel

All flights, trains, hotels and rental cars are booked through the company travel portal, so that we can reach you in an emergency and so that our negotiated rates apply.

1. Get your manager's approval for the trip before you book anything.
2. Book through the travel portal at least 14 days ahead for flights, when the trip is known that early.
3. Choose the lowest logical fare: economy class for flights under 6 hours, standard class for trains.
4. Book hotels from the portal's preferred list where one is available within 2 km of your destination.
5. Add the trip's purpose and cost centre to the booking; the portal will not confirm it without them.

Business class is allowed only for flights over 6 hours and with a director's approval. Trips to countries on the travel-risk list always need the approval of the safety officer as well.

## Limits

The limits below are per person and include taxes. Amounts above a limit are not reimbursed unless a director approved them in advance.

| Expense | Limit |
|---|---|
| Hotel, per night, major cities | 220 EUR |
| Hotel, per night, elsewhere | 150 EUR |
| Dinner, per day | 45 EUR |
| Lunch, per day | 20 EUR |
| Breakfast, when not in the room rate | 15 EUR |
| Client entertainment, per guest | 90 EUR |

Alcohol is reimbursed only as part of client entertainment, and never more than 2 drinks per person. Mileage for a private car is reimbursed at 0.23 EUR per kilometre; the claim must show the start and end address of each journey.

## Corporate cards

Employees who travel more than 4 times a year are issued a corporate card. The card is for business expenses only: private spending on the card must never happen, even when you intend to repay it. Card statements are reconciled in the expense tool within 10 days of the statement date. A card with an item unreconciled after 60 days is suspended until it is cleared. Lost or stolen cards must be reported to the bank and to finance within 24 hours.

## Claiming expenses

Claims are made in the expense tool, from the web or the mobile app.

1. Photograph each receipt in the app on the day you receive it, or upload the PDF for online purchases.
2. Choose the expense category and the cost centre for each line.
3. Add the names of any guests and their company for client entertainment.
4. Submit the claim within 30 days of the expense. Claims older than 90 days are not paid.
5. Keep the original paper receipts for 6 months; finance may ask for them in an audit.

Approved claims are paid with the next salary run; claims approved by the 20th of a month are paid that month.

## Approvals

Every claim is approved by the claimant's manager. The approver checks that the expense was necessary, that it is within the limits and that each receipt matches its line. Larger amounts need more approvals:

- up to 2,500 EUR: the manager;
- from 2,500 EUR to 10,000 EUR: the manager and a director;
- above 10,000 EUR: the manager, a director and the chief financial officer.

The same thresholds apply to supplier and freight invoices: invoices above 10,000 need two approvals, and the second approver must be from the finance team. Approvers have 5 working days to decide; after that the claim is escalated to the next level automatically.

## What we do not pay for

The following are never reimbursed: fines for parking or speeding, upgrades bought for personal comfort, travel insurance (the company policy covers you), minibar items, personal entertainment such as films or gym fees, and expenses of a partner or family member who travels with you. Lost luggage is claimed from the airline first, and from the company only for the part the airline does not pay.

## Breaches

Incorrect claims found in an audit are deducted from the next salary. A deliberately false claim is fraud: it is always investigated and can lead to dismissal. If you are unsure whether something can be claimed, ask finance before you spend, not after.
`
