import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { SCIM_ENTERPRISE_USER, SCIM_USER } from "@tks/domain/scim"
import { projectUser, userResource } from "../src/scim/user-resource.js"

// A create as Entra ID's provisioning service sends it (its SCIM tutorial's example).
const entraCreate = {
  schemas: [SCIM_USER, SCIM_ENTERPRISE_USER],
  externalId: "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef",
  userName: "Test_User_ab6490ee@testuser.com",
  active: true,
  emails: [{ primary: true, type: "work", value: "Test_User_fd0ea19b@TestUser.com" }],
  meta: { resourceType: "User" },
  name: { formatted: "givenName familyName", familyName: "familyName", givenName: "givenName" },
  roles: []
}

// A create as Okta sends it (its SCIM 2.0 guide's example), password included.
const oktaCreate = {
  schemas: [SCIM_USER],
  userName: "test.user@okta.local",
  name: { givenName: "Test", familyName: "User" },
  emails: [{ primary: true, value: "test.user@okta.local", type: "work" }],
  displayName: "Test User",
  locale: "en-US",
  externalId: "00ujl29u0le5T6Aj10h7",
  groups: [],
  password: "1mz050nq",
  active: true
}

const projected = (body: unknown) => Either.getOrThrow(projectUser(body))
const refused = (body: unknown) => Either.match(projectUser(body), { onLeft: (error) => error.detail, onRight: () => "accepted" })

describe("a SCIM User resource projected onto a person", () => {
  it("Entra ID's create: the primary email lower-cased, the formatted name, the externalId, the rest kept as sent", () => {
    const person = projected(entraCreate)
    expect(person).toMatchObject({
      userName: "Test_User_ab6490ee@testuser.com",
      externalId: "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef",
      email: "test_user_fd0ea19b@testuser.com",
      name: "givenName familyName",
      phone: null,
      active: true,
      managerReference: null
    })
    expect(person.attributes).toEqual({ emails: entraCreate.emails, name: entraCreate.name, roles: [] })
  })

  it("Okta's create: displayName is the name, and the password is never kept", () => {
    const person = projected(oktaCreate)
    expect(person).toMatchObject({ userName: "test.user@okta.local", email: "test.user@okta.local", name: "Test User", externalId: "00ujl29u0le5T6Aj10h7" })
    expect(JSON.stringify(person.attributes)).not.toContain("1mz050nq")
    expect(Object.keys(person.attributes)).not.toContain("password")
  })

  it("active as the strings Entra ID sends, any case; anything else is refused", () => {
    expect(projected({ ...entraCreate, active: "False" }).active).toBe(false)
    expect(projected({ ...entraCreate, active: "TRUE" }).active).toBe(true)
    expect(projected({ ...entraCreate, active: undefined }).active).toBe(true)
    expect(refused({ ...entraCreate, active: "maybe" })).toBe(`active must be true or false, not "maybe"`)
  })

  it("the manager as a bare id or as an object, empty meaning none; attribute names in any case", () => {
    expect(projected({ ...entraCreate, [SCIM_ENTERPRISE_USER]: { manager: "usr_1" } }).managerReference).toBe("usr_1")
    expect(projected({ ...entraCreate, [SCIM_ENTERPRISE_USER]: { manager: { value: "usr_2" } } }).managerReference).toBe("usr_2")
    expect(projected({ ...entraCreate, [SCIM_ENTERPRISE_USER]: { Manager: { Value: "" } } }).managerReference).toBeNull()
    expect(projected({ ...entraCreate, USERNAME: undefined, userName: undefined, UserName: "Casey@x.test", emails: [] }).email).toBe("casey@x.test")
    expect(refused({ ...entraCreate, [SCIM_ENTERPRISE_USER]: { manager: 7 } })).toBe("manager must be an id, or an object with the manager's id as value")
  })

  it("the phone: primary, else mobile, else work, in E.164 once spaces and brackets are gone; otherwise none", () => {
    const phones = [{ type: "work", value: "+1 (555) 010-0001" }, { type: "mobile", value: "+44 7700 900123" }]
    expect(projected({ ...entraCreate, phoneNumbers: phones }).phone).toBe("+447700900123")
    expect(projected({ ...entraCreate, phoneNumbers: [phones[0], { ...phones[1], primary: false }, { type: "home", value: "+15550100002", primary: "True" }] }).phone)
      .toBe("+15550100002")
    expect(projected({ ...entraCreate, phoneNumbers: [{ type: "work", value: "ext. 42" }] }).phone).toBeNull()
  })

  it("no userName, or no email anywhere, is refused with why", () => {
    expect(refused({ ...entraCreate, userName: "" })).toBe("userName is required, a non-empty string")
    expect(refused({ ...entraCreate, userName: "jdoe", emails: [] })).toBe(
      `The person needs an email: no email in emails, and userName "jdoe" is not one`
    )
    expect(refused([])).toBe("The body must be a SCIM User object")
  })
})

describe("a person answered as a SCIM User resource", () => {
  const record = {
    id: "usr_1",
    name: "Test User",
    email: "test.user@okta.local",
    phone: null,
    active: false,
    externalId: "00ujl29u0le5T6Aj10h7",
    userName: "test.user@okta.local",
    attributes: projected(oktaCreate).attributes,
    manager: { value: "usr_9", displayName: "Mia Manager" },
    created: new Date("2026-11-01T00:00:00Z"),
    lastModified: new Date("2026-11-02T00:00:00Z")
  }

  it("reads back what the directory sent, with the name, active state and manager this service holds, and its meta", () => {
    expect(userResource(record, "https://tks.example/scim/v2/Users/usr_1")).toEqual({
      schemas: [SCIM_USER, SCIM_ENTERPRISE_USER],
      id: "usr_1",
      externalId: "00ujl29u0le5T6Aj10h7",
      userName: "test.user@okta.local",
      name: { givenName: "Test", familyName: "User" },
      locale: "en-US",
      groups: [],
      displayName: "Test User",
      emails: oktaCreate.emails,
      active: false,
      [SCIM_ENTERPRISE_USER]: { manager: { value: "usr_9", displayName: "Mia Manager" } },
      meta: {
        resourceType: "User",
        created: "2026-11-01T00:00:00.000Z",
        lastModified: "2026-11-02T00:00:00.000Z",
        location: "https://tks.example/scim/v2/Users/usr_1",
        version: `W/"${Date.parse("2026-11-02T00:00:00Z")}"`
      }
    })
  })

  it("a person the directory never described is answered from the record alone", () => {
    const resource = userResource({ ...record, externalId: null, userName: null, attributes: null, manager: null, active: true }, "/scim/v2/Users/usr_1")
    expect(resource).toMatchObject({
      schemas: [SCIM_USER],
      userName: "test.user@okta.local",
      displayName: "Test User",
      emails: [{ value: "test.user@okta.local", type: "work", primary: true }],
      active: true
    })
    expect(resource).not.toHaveProperty("externalId")
    expect(resource).not.toHaveProperty(SCIM_ENTERPRISE_USER)
  })
})
