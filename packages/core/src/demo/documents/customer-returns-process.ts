/**
 * A demo document (customer success and operations): how a customer's
 * return is authorised, collected, received, graded and refunded.
 */
export const customerReturnsProcess = `# Customer Returns Process

This document describes how Acme Logistics handles goods that customers send back: from the customer's first request to the refund or credit note. It is used by the customer service desk, by dispatch when they plan a collection, and by the warehouse team who receive and grade the goods. The aim is simple: the customer always knows where their return is, and every returned item is back on sale, repaired or disposed of within 10 working days.

## When a return is accepted

A return is accepted when all of the following are true:

- the customer asks within 30 days of delivery (90 days for contract customers);
- the goods are unused and in their original packaging, or they arrived damaged or faulty;
- the goods are not on the non-returnable list: perishables, hazardous goods, and items made to order.

Faulty goods are always accepted within the 12-month warranty, whatever their packaging. When a request falls outside these rules, the desk may still accept it with a team lead's approval; the reason must be recorded on the return.

## Authorising a return

Every return needs a return authorisation number (RMA) before anything moves. Goods that arrive without one are held at the dock and the customer is contacted.

1. Find the order in the order system and check that the return is accepted under the rules above.
2. Create the RMA in the returns screen; the system prints the number and a returns label.
3. Choose the return method: drop-off at a partner point for parcels, or a collection for pallets.
4. Email the customer the RMA number, the label and the packing instructions.
5. For a collection, pass the RMA to dispatch, who book a slot with the customer within 2 working days.

The customer must always be told the RMA number in writing. Never promise a refund amount on the phone before the goods have been graded.

## Collections

Dispatch plans collections together with deliveries on the same route, so a collection usually takes place within 3 working days. The driver scans the RMA label at pick-up, which tells the customer automatically that their return is on its way. If a collection is delayed or missed, the customer must be told within 2 hours, and a new slot is offered on the same call. A collection that fails twice is escalated to the customer service team lead.

## Receiving returned goods

Returns are received at dock 7 in Rotterdam and dock 2 in Leeds, separately from new stock, so that returned goods can never be put away unchecked.

1. Scan the RMA label; the system shows what was expected and why it was returned.
2. Count the items and compare them with the RMA. Record any difference on the return.
3. Photograph the outer packaging before you open it, and again after opening if anything is damaged.
4. Move the goods to the returns cage to wait for grading.

Returned goods are graded within 2 working days of arrival. A return waiting longer than that appears in red on the returns dashboard, and the shift supervisor must clear it before the end of the next shift.

## Grading and disposition

The grader inspects each item and gives it one grade. The grade decides what happens next.

| Grade | Condition | What happens |
|---|---|---|
| A | As new, original packaging undamaged | Back to stock, sold as new |
| B | Unused, packaging damaged | Repackaged, sold as new or at a 15% discount |
| C | Used or slightly damaged, working | Sold through the outlet channel |
| D | Faulty or broken | Returned to the supplier under warranty, or recycled |

Items graded D are never put back into stock. Batteries, electronics and chemicals always go to the certified recycler, who collects every Tuesday. Graders record the grade, a photo and any serial number in the returns screen; the grade cannot be changed afterwards without a team lead.

## Refunds and credit notes

Finance issues the refund or credit note once the goods are graded.

1. Grades A and B are refunded in full, including the original delivery charge if the goods were faulty.
2. Grade C is refunded at 70% of the price paid, unless the goods arrived damaged.
3. Refunds are made to the original payment method within 5 working days of grading.
4. Contract customers receive a credit note on their next invoice instead of a refund.

Refunds above 1,000 EUR need the approval of the customer service manager. A refund must never be paid to a different account from the one that paid for the order.

## Damaged in transit

When goods were damaged on the way to the customer, the claim is made against the carrier, not the customer. The carrier must be notified within 7 days of delivery with the photos from receiving. Customer service tracks each claim until the carrier pays; last year 94% of carrier claims were settled within 30 days.

## Measures

The returns dashboard shows, for each site and week: the number of returns, the share graded within 2 working days (target 95%), the average days from RMA to refund (target 8) and the reasons for return. The customer service manager reviews it every Monday with dispatch and the warehouse, and the three most common return reasons are shared with the sales team each month.
`
