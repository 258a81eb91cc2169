import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SCIM_ERROR, SCIM_GROUP, SCIM_LIST_RESPONSE, SCIM_USER } from "@tks/domain/scim"
import { provisioned, SCIM, scim } from "./support/scim.js"
import { TestServerLive } from "./support/server.js"

/**
 * A compliance run of the SCIM service provider: every filter operator on
 * every filterable attribute the issue names, ListResponse paging, the
 * attribute projections, ETags and If-Match, and the exact shape of every
 * error body.
 */

const USERS = "/Users"
const ORG_EMAIL_DOMAIN = "scim-compliance.test"

const person = (key: string, displayName: string, externalId: string | null) => ({
  schemas: [SCIM_USER],
  userName: `${key}@${ORG_EMAIL_DOMAIN}`,
  ...(externalId === null ? {} : { externalId }),
  displayName,
  emails: [{ value: `${key}.mail@${ORG_EMAIL_DOMAIN}`, type: "work", primary: true }],
  active: true
})

/** The userNames a Users filter finds, sorted. */
const found = (directory: string, filter: string) =>
  Effect.map(scim("GET", `${USERS}?filter=${encodeURIComponent(filter)}`, directory), (response) => {
    expect(response.status, `${filter}: ${response.text}`).toBe(200)
    return (response.json.Resources as Array<{ userName: string }>).map((resource) => resource.userName.split("@")[0]).sort()
  })

const isScimError = (response: { readonly status: number; readonly json: any; readonly headers: Headers }, status: number, scimType?: string) => {
  expect(response.headers.get("content-type")).toBe(SCIM)
  expect(response.json.schemas).toEqual([SCIM_ERROR])
  expect(response.json.status).toBe(String(status))
  expect(typeof response.json.detail).toBe("string")
  if (scimType !== undefined) expect(response.json.scimType).toBe(scimType)
  expect(response.status).toBe(status)
}

layer(TestServerLive, { excludeTestServices: true })("SCIM compliance", (it) => {
  it.effect("every filter operator on userName, externalId, emails.value and displayName, and on a group's displayName", () =>
    Effect.gen(function*() {
      const { directory } = yield* provisioned("Scim Compliance Filters Org", ORG_EMAIL_DOMAIN)
      for (const [key, name, externalId] of [["ann", "Ann Archer", "EXT-1"], ["bob", "Bob Baker", "ext-2"], ["cid", "Cid Cole", null]] as const) {
        expect((yield* scim("POST", USERS, directory, person(key, name, externalId))).status).toBe(201)
      }
      expect(yield* found(directory, `userName eq "ANN@${ORG_EMAIL_DOMAIN}"`)).toEqual(["ann"])
      expect(yield* found(directory, `userName co "b@scim"`)).toEqual(["bob"])
      expect(yield* found(directory, `userName sw "c"`)).toEqual(["cid"])
      expect(yield* found(directory, `externalId eq "EXT-1"`)).toEqual(["ann"])
      expect(yield* found(directory, `externalId pr`)).toEqual(["ann", "bob"])
      expect(yield* found(directory, `emails.value eq "bob.mail@${ORG_EMAIL_DOMAIN}"`)).toEqual(["bob"])
      expect(yield* found(directory, `emails[type eq "work" and value co "cid."]`)).toEqual(["cid"])
      expect(yield* found(directory, `displayName sw "ann" or displayName co "cole"`)).toEqual(["ann", "cid"])
      expect(yield* found(directory, `displayName pr and externalId pr and not (userName sw "a")`)).toEqual(["bob"])

      for (const name of ["Night Shift", "Day Shift"]) expect((yield* scim("POST", "/Groups", directory, { schemas: [SCIM_GROUP], displayName: name })).status).toBe(201)
      const groups = (filter: string) =>
        Effect.map(scim("GET", `/Groups?filter=${encodeURIComponent(filter)}`, directory), (response) =>
          (response.json.Resources as Array<{ displayName: string }>).map((group) => group.displayName).sort())
      expect(yield* groups(`displayName eq "night shift"`)).toEqual(["Night Shift"])
      expect(yield* groups(`displayName co "shift"`)).toEqual(["Day Shift", "Night Shift"])
      expect(yield* groups(`displayName sw "D" or displayName sw "N"`)).toEqual(["Day Shift", "Night Shift"])
      expect(yield* groups(`displayName pr and displayName sw "Day"`)).toEqual(["Day Shift"])
    }))

  it.effect("a ListResponse pages by startIndex and count, with the total; attributes and excludedAttributes shape each resource, id and schemas always kept", () =>
    Effect.gen(function*() {
      const { directory } = yield* provisioned("Scim Compliance Pages Org", "scim-pages.test")
      for (const key of ["p1", "p2", "p3"]) yield* scim("POST", USERS, directory, { ...person(key, key, null), userName: `${key}@scim-pages.test`, emails: [{ value: `${key}@scim-pages.test`, primary: true }] })
      // Pages follow one order (creation, then id: PGlite's clock can give two people the same millisecond).
      const all = (yield* scim("GET", `${USERS}?filter=${encodeURIComponent(`userName sw "p"`)}`, directory)).json.Resources.map((resource: any) => resource.userName)
      expect([...all].sort()).toEqual(["p1@scim-pages.test", "p2@scim-pages.test", "p3@scim-pages.test"])
      const page = yield* scim("GET", `${USERS}?filter=${encodeURIComponent(`userName sw "p"`)}&startIndex=2&count=1`, directory)
      expect(page.headers.get("content-type")).toBe(SCIM)
      expect(page.json).toMatchObject({ schemas: [SCIM_LIST_RESPONSE], totalResults: 3, startIndex: 2, itemsPerPage: 1 })
      expect(page.json.Resources.map((resource: any) => resource.userName)).toEqual([all[1]])
      const none = yield* scim("GET", `${USERS}?count=0`, directory)
      expect(none.json).toMatchObject({ totalResults: 4, itemsPerPage: 0, Resources: [] })
      const only = (yield* scim("GET", `${USERS}?filter=${encodeURIComponent(`userName eq "p1@scim-pages.test"`)}&attributes=userName,name.givenName`, directory)).json.Resources[0]
      expect(Object.keys(only).sort()).toEqual(["id", "meta", "schemas", "userName"])
      const without = (yield* scim("GET", `${USERS}?filter=${encodeURIComponent(`userName eq "p1@scim-pages.test"`)}&excludedAttributes=emails,displayName`, directory)).json.Resources[0]
      expect(without).not.toHaveProperty("emails")
      expect(without).not.toHaveProperty("displayName")
      expect(without).toHaveProperty("userName")
      const badIndex = yield* scim("GET", `${USERS}?startIndex=first`, directory)
      isScimError(badIndex, 400, "invalidValue")
    }))

  it.effect("ETags: GET answers the resource's version; If-Match with it succeeds once, then the old one is 412; DELETE honours it too", () =>
    Effect.gen(function*() {
      const { directory } = yield* provisioned("Scim Compliance Etag Org", "scim-etag.test")
      const created = (yield* scim("POST", USERS, directory, { ...person("eve", "Eve", "e-1"), userName: "eve@scim-etag.test", emails: [{ value: "eve@scim-etag.test", primary: true }] })).json
      const read = yield* scim("GET", `${USERS}/${created.id}`, directory)
      expect(read.headers.get("etag")).toBe(read.json.meta.version)
      const version = read.json.meta.version as string
      const put = yield* scim("PUT", `${USERS}/${created.id}`, directory, { ...read.json, displayName: "Eve Evans" }, { "if-match": version })
      expect(put.status, put.text).toBe(200)
      expect(put.headers.get("etag")).not.toBe(version)
      isScimError(yield* scim("PUT", `${USERS}/${created.id}`, directory, { ...read.json, displayName: "Eve Again" }, { "if-match": version }), 412)
      isScimError(yield* scim("DELETE", `${USERS}/${created.id}`, directory, undefined, { "if-match": version }), 412)
      expect((yield* scim("DELETE", `${USERS}/${created.id}`, directory, undefined, { "if-match": put.headers.get("etag")! })).status).toBe(204)
    }))

  it.effect("error bodies: 401, 404, 400 invalidFilter, invalidSyntax, invalidValue, mutability, invalidPath and noTarget, 409 uniqueness, 405 for a method the path does not take", () =>
    Effect.gen(function*() {
      const { directory } = yield* provisioned("Scim Compliance Errors Org", "scim-errors-shape.test")
      isScimError(yield* scim("GET", USERS, "scim_wrong"), 401)
      isScimError(yield* scim("GET", `${USERS}/usr_missing`, directory), 404)
      isScimError(yield* scim("GET", `/Groups/team_missing`, directory), 404)
      isScimError(yield* scim("GET", `${USERS}?filter=${encodeURIComponent("nickName eq \"x\"")}`, directory), 400, "invalidFilter")
      isScimError(yield* scim("GET", `${USERS}?filter=${encodeURIComponent("userName eq")}`, directory), 400, "invalidFilter")
      isScimError(yield* scim("POST", USERS, directory, { schemas: [SCIM_USER] }), 400, "invalidValue")
      isScimError(yield* scim("PATCH", `${USERS}/usr_missing`, directory, { Operations: [] }), 404)
      const user = (yield* scim("POST", USERS, directory, { schemas: [SCIM_USER], userName: "u@scim-errors-shape.test", externalId: "u-1" })).json
      isScimError(yield* scim("PATCH", `${USERS}/${user.id}`, directory, { Operations: [{ op: "move", path: "active" }] }), 400, "invalidSyntax")
      isScimError(yield* scim("POST", USERS, directory, { schemas: [SCIM_USER], userName: "U@scim-errors-shape.test", externalId: "u-2" }), 409, "uniqueness")
      isScimError(yield* scim("PATCH", `${USERS}/${user.id}`, directory, { Operations: [{ op: "replace", path: "id", value: "usr_other" }] }), 400, "mutability")
      isScimError(yield* scim("PUT", `${USERS}/${user.id}`, directory, { schemas: [SCIM_USER], id: "usr_other", userName: "u@scim-errors-shape.test" }), 400, "mutability")
      isScimError(yield* scim("PATCH", `${USERS}/${user.id}`, directory, { Operations: [{ op: "replace", path: "emails[type eq", value: "x" }] }), 400, "invalidPath")
      isScimError(yield* scim("PATCH", `${USERS}/${user.id}`, directory, { Operations: [{ op: "remove" }] }), 400, "noTarget")
      const notAllowed = yield* scim("PATCH", USERS, directory, { Operations: [] })
      expect(notAllowed.status).toBe(405)
    }))
})
