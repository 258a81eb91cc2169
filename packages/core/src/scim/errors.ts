import { Data } from "effect"

/** No such resource in the caller's organization (or one the directory may not see): SCIM 404. */
export class ScimNotFound extends Data.TaggedError("ScimNotFound")<{ readonly detail: string }> {}

/** `If-Match` named a version the resource no longer has: SCIM 412, nothing changed. */
export class ScimVersionMismatch extends Data.TaggedError("ScimVersionMismatch")<{ readonly detail: string }> {}
