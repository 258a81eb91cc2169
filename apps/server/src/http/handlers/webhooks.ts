import { Effect } from "effect"
import { Api } from "@tks/api/api"
import { WebhookEndpoints } from "@tks/core/webhooks/service"
import { asCaller } from "../as-caller.js"
import { group } from "../wire-answers.js"

export const WebhooksHandlers = group(Api, "webhooks", (handlers) =>
  Effect.gen(function*() {
    const webhooks = yield* WebhookEndpoints
    return handlers
      .handle("create", ({ payload }) => asCaller((access) => webhooks.create(access, payload)))
      .handle("list", ({ urlParams }) => asCaller((access) => webhooks.list(access, urlParams)))
      .handle("get", ({ path }) => asCaller((access) => webhooks.get(access, path.id)))
      .handle("update", ({ path, payload }) => asCaller((access) => webhooks.update(access, path.id, payload)))
      .handle("remove", ({ path }) => asCaller((access) => webhooks.remove(access, path.id)))
      .handle("rotateSecret", ({ path }) => asCaller((access) => webhooks.rotateSecret(access, path.id)))
      .handle("test", ({ path }) => asCaller((access) => webhooks.test(access, path.id)))
      .handle("deliveries", ({ path, urlParams }) => asCaller((access) => webhooks.deliveries(access, path.id, urlParams)))
      .handle("replayDelivery", ({ path }) => asCaller((access) => webhooks.replayDelivery(access, path.id)))
      .handle("replayFailed", ({ path, payload }) => asCaller((access) => webhooks.replayFailed(access, path.id, payload)))
  }))
