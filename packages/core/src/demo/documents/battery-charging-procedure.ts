/**
 * A demo document waiting in the review lane: a forklift operator's
 * proposal, submitted for an administrator to approve. It answers the demo
 * finding that the inspection checklist does not mention battery charging.
 */
export const batteryChargingProcedure = `# Forklift Battery Charging Procedure

Our electric forklifts run on lead-acid batteries of 48 V. Charging them releases hydrogen, which can explode, and the electrolyte is an acid that burns skin and eyes. This procedure covers changing and charging batteries in the charging room next to bay 1.

## Before charging

1. Park the truck in a marked charging bay, lower the forks, set the parking brake and switch it off.
2. Put on safety glasses, a face shield and acid-resistant gloves.
3. Check that the room's extraction fan is running; the green light above the door must be on.
4. Check the battery case and cables for cracks, corrosion and loose connectors.

Batteries must never be charged outside the charging room, and nobody may smoke or use an open flame within 5 m of it.

## Charging

1. Connect the charger plug to the battery before you switch the charger on.
2. Check the charger display shows the charge has started.
3. Leave the battery cover open while it charges, so the gas can escape.
4. When the charger shows the charge is complete, switch it off before you unplug the battery.

A full charge takes about 8 hours. Batteries should be charged when they fall below 30%, never run until flat.

## Topping up water

Distilled water is added only after a full charge, once a week, up to the level mark. Always use the filling gun, never an open container.

## Spills and splashes

Neutralise spilt acid with the spill kit by the door. If acid touches your skin or eyes, rinse it at the eye-wash station for at least 15 minutes and call a first aider on 2222.
`
