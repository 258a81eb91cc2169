import { describe, expect, it } from "@effect/vitest"
import { SCIM_ENTERPRISE_USER, SCIM_GROUP, SCIM_USER } from "@tks/domain/scim"
import { resourceTypeById, resourceTypesList, SCIM_MAX_RESULTS, schemaById, schemas, serviceProviderConfig } from "../src/scim/discovery.js"

const base = "https://tks.example/scim/v2"

describe("what a directory reads to learn the service provider", () => {
  it("ServiceProviderConfig: PATCH, filters (with the page size), ETags and a bearer token; no bulk, sorting or password change", () => {
    const config = serviceProviderConfig(base, "https://tks.example/docs#scim")
    expect(config).toMatchObject({
      patch: { supported: true },
      bulk: { supported: false },
      filter: { supported: true, maxResults: SCIM_MAX_RESULTS },
      changePassword: { supported: false },
      sort: { supported: false },
      etag: { supported: true },
      meta: { resourceType: "ServiceProviderConfig", location: `${base}/ServiceProviderConfig` }
    })
    expect(config.authenticationSchemes.map((scheme) => scheme.type)).toEqual(["oauthbearertoken"])
  })

  it("ResourceTypes: User with the enterprise extension, and Group, as a ListResponse and one by one (any case)", () => {
    const listed = resourceTypesList(base)
    expect(listed).toMatchObject({ totalResults: 2, startIndex: 1, itemsPerPage: 2 })
    expect(listed.Resources.map((type) => [type.id, type.endpoint, type.schema])).toEqual([["User", "/Users", SCIM_USER], ["Group", "/Groups", SCIM_GROUP]])
    expect(resourceTypeById(base, "user")).toMatchObject({ schemaExtensions: [{ schema: SCIM_ENTERPRISE_USER, required: false }], meta: { location: `${base}/ResourceTypes/User` } })
    expect(resourceTypeById(base, "Device")).toBeNull()
  })

  it("Schemas: each attribute with its type and rules; userName required and unique, a password never returned", () => {
    expect(schemas(base).Resources.map((schema) => schema.id)).toEqual([SCIM_USER, SCIM_ENTERPRISE_USER, SCIM_GROUP])
    const user = schemaById(base, SCIM_USER)!
    const userName = user.attributes.find((attribute) => attribute.name === "userName")
    expect(userName).toMatchObject({ type: "string", required: true, uniqueness: "server", caseExact: false })
    expect(user.attributes.find((attribute) => attribute.name === "password")).toMatchObject({ mutability: "writeOnly", returned: "never" })
    expect(schemaById(base, SCIM_ENTERPRISE_USER)!.attributes.map((attribute) => attribute.name)).toContain("manager")
    expect(schemaById(base, "urn:example:nothing")).toBeNull()
    for (const schema of schemas(base).Resources) {
      for (const attribute of schema.attributes) {
        expect(Object.keys(attribute)).toEqual(
          expect.arrayContaining(["name", "type", "multiValued", "description", "required", "caseExact", "mutability", "returned", "uniqueness"])
        )
      }
    }
  })
})
