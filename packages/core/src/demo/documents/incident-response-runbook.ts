/**
 * A demo document (IT and security): how an outage or a security incident
 * is declared, handled and reviewed.
 */
export const incidentResponseRunbook = `# Incident Response Runbook

This runbook is for everyone on the IT on-call rota and for anyone who notices that a system Acme Logistics depends on is down, slow or compromised: the warehouse management system, the dispatch planner, the customer portal, the scanners and the office network. Follow it step by step during an incident. Improve it afterwards, not during.

## Severity levels

Every incident is given a severity when it is declared. When in doubt, choose the higher severity: it can be lowered later.

| Severity | Meaning | First response | Updates |
|---|---|---|---|
| SEV1 | A whole site cannot ship, or customer data may be exposed | 15 minutes, day or night | every 30 minutes |
| SEV2 | A major function is degraded at one site | 30 minutes | every hour |
| SEV3 | A minor function is broken, a workaround exists | next working day | daily |
| SEV4 | Cosmetic, or a risk with no impact yet | planned work | none |

Last year we handled 3 SEV1 and 17 SEV2 incidents; the median time to restore service for a SEV1 was 2 hours 10 minutes.

## Declaring an incident

Anyone may declare an incident. Declaring early costs little; declaring late costs shipments.

1. Open the incident channel with the command /incident in the team chat, and give a one-line description.
2. Choose the severity from the table above.
3. Page the on-call engineer through the pager app; for SEV1, also page the on-call manager.
4. Write what you saw, when it started and what you already tried in the channel.
5. Stay in the channel until the incident commander has taken over.

## Roles

Each incident has one incident commander. The commander does not fix the problem: they coordinate, decide and keep everyone informed.

- The incident commander is the on-call engineer until they hand over, and they must always announce a handover in the channel.
- The communications lead writes the updates for the status page, the sites and the customer service team.
- The scribe keeps the timeline: every action, with the time and the person who did it.
- Subject experts are invited by the commander and leave when they are no longer needed.

For a SEV1 the three roles are always held by three different people.

## Diagnosis and containment

Restore service first; find the root cause later. The commander works through these steps and records each one:

1. Check the monitoring dashboards for the systems involved and note the first abnormal reading.
2. Check the change calendar: most incidents follow a change made in the previous 24 hours.
3. If a recent change is the likely cause, roll it back. A rollback never needs further approval during an incident.
4. If the cause is capacity, scale out, or shed the least important load (reports, exports) first.
5. If a site cannot ship, switch it to the paper fallback: printed pick lists and manual dispatch notes.
6. When service is restored, watch it for 30 minutes before you resolve the incident.

Never delete logs, disks or accounts while an incident is open, even when they look like the cause. They are evidence.

## Security incidents

A security incident is any event that may have exposed, changed or destroyed data, or given someone access they should not have: a lost laptop, a phishing click, malware, a leaked password or an unexplained admin login. Security incidents are always at least SEV2.

1. Isolate the affected device or account: disconnect it from the network, or disable the account. Do not switch the device off.
2. Reset the passwords and revoke the tokens the account held.
3. Tell the security lead at once; they take over as incident commander.
4. Preserve evidence: take a memory and disk image before any clean-up.

If personal data may have been exposed, the data protection officer must be told within 24 hours. The company must notify the regulator within 72 hours of becoming aware of a personal data breach, and affected customers without undue delay. Only the data protection officer sends these notifications.

## Communication

The communications lead posts the first status-page update within 15 minutes of a SEV1 being declared and then at the interval in the severity table, even when there is nothing new to say. Updates say what is affected, what customers should do and when the next update will come. They never speculate about the cause or name a supplier before the supplier has confirmed the fault. Site managers are phoned, not messaged, for a SEV1.

## Resolving and reviewing

An incident is resolved when service has been normal for 30 minutes. The commander posts the resolution in the channel and closes the page.

1. The scribe completes the timeline within 1 working day.
2. A post-incident review is held within 5 working days for every SEV1 and SEV2.
3. The review is blameless: it asks what made the failure possible, not who made the mistake.
4. Each action from the review gets an owner and a due date in the issue tracker.
5. The review is shared with all of engineering and with the affected sites.

The security lead reports the number of incidents, their severities and their time to restore to the leadership team every quarter.
`
