/**
 * A demo document (health and safety): the warehouse's safety rules. Kept as
 * a string in a module, not a .md file, so the bundled server carries it.
 */
export const warehouseSafetyHandbook = `# Warehouse Safety Handbook

This handbook applies to everyone who works in or visits the Acme Logistics warehouses in Rotterdam and Leeds: employees, agency staff, drivers waiting at the docks and contractors. It sets out the rules that keep people safe around forklifts, racking, loading docks and stored goods. Read it before your first shift and again whenever it changes; your supervisor will ask you to confirm that you have.

## Personal protective equipment

The warehouse floor starts at the yellow line inside each door. Beyond that line the following equipment is required at all times, including for short visits and for managers.

1. Put on safety shoes with steel or composite toe caps (standard EN ISO 20345, class S3).
2. Wear a high-visibility vest or jacket, orange for staff and yellow for visitors.
3. Wear cut-resistant gloves (level C or higher) when you handle strapping, stretch film or broken pallets.
4. Wear safety glasses when you cut strapping, charge batteries or work above shoulder height.
5. Wear hearing protection in the baling area, where noise regularly exceeds 85 dB.

PPE is issued free of charge from the stores window. Damaged PPE must be exchanged before the start of the next shift, and you must never lend your safety shoes or gloves to someone else. Visitors always wear a yellow vest and are always accompanied by a member of staff.

## Forklift operation

Only people holding a current Acme forklift licence may drive a forklift, reach truck or order picker. A licence is valid for 3 years and is renewed after a refresher course and a practical test. Agency staff must show their licence to the shift supervisor before they are given a key.

### Pre-shift inspection

Every truck is inspected at the start of every shift, by the person who will drive it. The inspection takes about 5 minutes and is recorded on the shift sheet.

1. Walk around the truck and look for visible damage, leaks under the truck and loose parts.
2. Check the forks and chains for cracks, bends and worn links.
3. Check the hydraulic lines and the mast for leaks.
4. Test the horn, the lights, the reversing alarm and the blue warning spot.
5. Test the service brake and the parking brake on the ramp by bay 4.
6. Check the battery charge indicator shows at least 30%, or the gas cylinder is secured.
7. Sign the shift sheet. If any check fails, tag the truck "Do not use", remove the key and tell the supervisor.

A truck that fails its inspection must never be driven until maintenance has signed it off.

### Driving rules

- Forklifts must never exceed 8 km/h inside the building, and 5 km/h in the aisles between racks.
- Always drive with the forks lowered to about 15 cm above the floor, and tilted back.
- Always sound the horn at blind corners, doorways and the ends of aisles.
- Never carry passengers, and never lift a person on the forks or on a pallet.
- Pedestrians have right of way on marked walkways; drivers stop at every crossing.
- Park with the forks flat on the floor, the parking brake on and the key removed.

The fleet has 42 trucks across both sites. SafeLift Inspections certifies every truck each quarter, and a truck without a current certificate is taken out of service on the day it expires.

## Racking and storage

Racking is inspected every week by the warehouse team and once a year by an external expert. Damaged uprights are the most common cause of racking collapse, so report every knock, however small.

1. Stop using the affected bay and put the red "Bay closed" cover on the beam.
2. Photograph the damage and log it in the racking register with the bay number.
3. Tell the shift supervisor, who decides within 24 hours whether the bay is unloaded.

Pallets must never be stacked higher than 1.8 m on the floor, and loads on the racking must never exceed the rated load shown on the beam label (1,000 kg per pallet position on standard beams). Heavy items are always stored at the lower levels. Never climb the racking: use a mobile step or an order picker.

## Loading docks

Most serious injuries in logistics happen at the dock edge. Before anyone enters a trailer:

1. Check the trailer's wheels are chocked or the vehicle restraint shows green.
2. Check the dock leveller is fully down and locked.
3. Check the trailer floor for damage and the load for shifting.

Drivers wait in the drivers' room while their vehicle is loaded, never in the cab. Dock doors must always be closed when no trailer is at the bay.

## Manual handling

Use a pallet truck or a lifting aid for anything over 25 kg. For lighter loads, plan the lift, keep the load close to your waist and avoid twisting. Two people lift loads that are awkward in shape, even when they are light. Team leaders rotate pickers between heavy and light zones every 2 hours.

## Fire safety and drills

Fire drills are held twice a year on each shift, announced to the supervisors only. When the alarm sounds:

1. Stop work, switch off your truck or machine and leave the load where it is.
2. Leave by the nearest green exit; do not collect belongings.
3. Go to the assembly point in the front car park, by the flagpole.
4. Report to your fire warden, who checks the team against the shift list.

Fire exits and the 1 m zone in front of them must always be kept clear. Extinguishers are checked monthly; there is one within 30 m of every point on the floor. Smoking and vaping are allowed only in the shelter by the gatehouse.

## Incidents and near misses

A near miss is any event that could have hurt someone or damaged goods but did not, such as a pallet falling into an empty aisle. Near misses are reported exactly as incidents are, because they show where the next injury will happen.

1. Make the area safe and give or call for first aid (first aiders wear green helmets; the number is 2222).
2. Tell your supervisor at once.
3. Record the incident or near miss in the safety app within 24 hours, with photos where it is safe to take them.

Every incident and near miss must be reported within 24 hours. The safety officer reviews each report within 5 working days and publishes the actions taken. Nobody is blamed for reporting: hiding an incident is a disciplinary matter, reporting one is not.

## Training and induction

New starters complete the site safety induction on their first day, before they go onto the floor. The induction lasts 3 hours and covers this handbook, the fire procedure and a walk of the site. Forklift drivers also complete the forklift basics course, and every employee repeats the safety induction once a year.
`
