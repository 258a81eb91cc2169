import { BadRequest, NotFound } from "@tks/domain/errors"
import { idList } from "./reach.js"

/**
 * The 400s and 404s of the assigning acts, with stable codes.
 * Each refusal happens before anything is written, or rolls the act's one
 * transaction back, so nothing changes for anyone.
 */
export const AssigningCode = {
  unknownUser: "UNKNOWN_USER",
  cannotTakeLesson: "CANNOT_TAKE_LESSON",
  lessonNotAssignable: "LESSON_NOT_ASSIGNABLE",
  nobodyReached: "NOBODY_REACHED",
  notInProgress: "LESSON_NOT_IN_PROGRESS",
  unknownItem: "UNKNOWN_ITEM",
  noDuty: "NO_DUTY",
  personLeft: "PERSON_DEACTIVATED",
  obligationState: "OBLIGATION_STATE"
} as const

export const noSuchLesson = () => new NotFound({ message: "No such lesson" })
export const noSuchObligation = () => new NotFound({ message: "No such obligation" })

export const unknownUsers = (ids: ReadonlyArray<string>) =>
  new BadRequest({ code: AssigningCode.unknownUser, message: `Unknown userId: ${idList(ids)} (not a person of this organization)` })

export const cannotTakeLesson = (ids: ReadonlyArray<string>) =>
  new BadRequest({
    code: AssigningCode.cannotTakeLesson,
    message: `These people cannot take the lesson (they have left the organization, or cannot read it): ${idList(ids)}. Nothing was assigned.`
  })

export const personLeft = (id: string) =>
  new BadRequest({ code: AssigningCode.personLeft, message: `${id} has left the organization (DEACTIVATED)` })

/** A closed lesson cannot be started, so no act may make anyone owe it. */
export const closedLesson = (act: string) =>
  new BadRequest({ code: AssigningCode.lessonNotAssignable, message: `This lesson is closed: a closed lesson cannot ${act}` })

export const personalLesson = (act: string) =>
  new BadRequest({
    code: AssigningCode.lessonNotAssignable,
    message: `This lesson was generated for a single person: it cannot ${act}`
  })

export const nobodyReached = () =>
  new BadRequest({
    code: AssigningCode.nobodyReached,
    message: "Nobody in this audience can take the lesson (everyone in it has left the organization or cannot read the lesson)"
  })

export const notInProgress = () =>
  new BadRequest({ code: AssigningCode.notInProgress, message: "None of the named people has this lesson in progress" })

export const unknownItem = (itemType: "topic" | "item") =>
  new BadRequest({ code: AssigningCode.unknownItem, message: `Unknown ${itemType}: no such ${itemType} in the live knowledge graph` })

export const noDuty = (itemType: "topic" | "item") =>
  new BadRequest({
    code: AssigningCode.noDuty,
    message: `This person holds no duty on the ${itemType} (directly, through a team, or through a company role they hold at a tier the duty reaches)`
  })

export const stateRefusal = (message: string) => new BadRequest({ code: AssigningCode.obligationState, message })
