import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { AuditEventParams, AuditEvent } from "@tks/domain/audit"
import { Event, EventFeedParams } from "@tks/domain/events"
import { Page } from "@tks/domain/pagination"
import { policies } from "@tks/domain/policies"
import { Authentication } from "../authentication.js"
import { requires } from "../authorization.js"

/** What happened in the organization: the event feed integrators poll, and the audit log of every act. */
export class EventsGroup extends HttpApiGroup.make("events")
  .add(
    HttpApiEndpoint.get("feed", "/events")
      .setUrlParams(EventFeedParams)
      .addSuccess(Page(Event))
      .annotate(OpenApi.Summary, "Read the event feed")
      .annotate(
        OpenApi.Description,
        "The organization's events in feed order (ascending `position`), for integrators who poll instead of receiving webhooks: the same events, in the same shape, as webhooks deliver (see `webhooks` in this document). Start after a position with `after` (the `position` of the last event processed), page on with `cursor`; `type` keeps one event type. When a page ends the feed (`nextCursor` null), poll again later with `after` = the last position read. An event appears once the change that wrote it has committed and every earlier writer has finished, so reading on from a position never skips one. Events are kept 30 days."
      )
      .pipe(requires(policies.events.feed))
  )
  .add(
    HttpApiEndpoint.get("audit", "/audit-events")
      .setUrlParams(AuditEventParams)
      .addSuccess(Page(AuditEvent))
      .annotate(OpenApi.Summary, "Read the audit log")
      .annotate(
        OpenApi.Description,
        "Every act done in the organization, newest first: who (the person and the access token, or the operator's CLI and the service's workers as `system`), what (`action`: an event type, or the name of an act that emits no event, such as `access_token.issued`), on which records (`targets`), from where (request id, client address, user agent) and what changed (old and new values; secrets are never shown). Filters: `actor` (a person id), `target` (any record's id), `type` (an action), `since` (inclusive) and `until` (exclusive)."
      )
      .pipe(requires(policies.audit.list))
  )
  .middleware(Authentication) {}
