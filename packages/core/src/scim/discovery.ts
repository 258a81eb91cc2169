import { SCIM_ENTERPRISE_USER, SCIM_GROUP, SCIM_LIST_RESPONSE, SCIM_USER } from "@tks/domain/scim"

/**
 * What a directory reads to learn this service provider (RFC 7644 section
 * 4; RFC 7643 sections 5 to 7): its capabilities, its two resource types
 * and the schemas of their attributes, as far as this service keeps them.
 * Built once; only the locations depend on where the service is reached.
 */

/** The most resources one page of a list holds; a larger `count` is cut to it. */
export const SCIM_MAX_RESULTS = 200

interface AttributeOptions {
  readonly multiValued?: boolean
  readonly required?: boolean
  readonly caseExact?: boolean
  readonly mutability?: "readOnly" | "readWrite" | "immutable" | "writeOnly"
  readonly returned?: "always" | "never" | "default" | "request"
  readonly uniqueness?: "none" | "server" | "global"
  readonly subAttributes?: ReadonlyArray<Record<string, unknown>>
  readonly referenceTypes?: ReadonlyArray<string>
  readonly description?: string
}

const attr = (name: string, type: string, options: AttributeOptions = {}) => ({
  name,
  type,
  multiValued: options.multiValued ?? false,
  description: options.description ?? name,
  required: options.required ?? false,
  caseExact: options.caseExact ?? false,
  mutability: options.mutability ?? "readWrite",
  returned: options.returned ?? "default",
  uniqueness: options.uniqueness ?? "none",
  ...(options.subAttributes === undefined ? {} : { subAttributes: options.subAttributes }),
  ...(options.referenceTypes === undefined ? {} : { referenceTypes: options.referenceTypes })
})

const valueOf = (type = "string") => [
  attr("value", type),
  attr("type", "string"),
  attr("primary", "boolean"),
  attr("display", "string")
]

const userSchema = {
  id: SCIM_USER,
  name: "User",
  description: "A person of the organization",
  attributes: [
    attr("userName", "string", { required: true, uniqueness: "server", description: "How the directory signs the person in; unique in the organization, any case" }),
    attr("name", "complex", {
      subAttributes: ["formatted", "familyName", "givenName", "middleName", "honorificPrefix", "honorificSuffix"].map((name) => attr(name, "string"))
    }),
    attr("displayName", "string", { description: "The person's name as this service shows it" }),
    attr("nickName", "string"),
    attr("title", "string"),
    attr("preferredLanguage", "string"),
    attr("locale", "string"),
    attr("timezone", "string"),
    attr("active", "boolean", { description: "false deactivates the person: their access tokens stop working at once" }),
    attr("password", "string", { mutability: "writeOnly", returned: "never", description: "Never kept: people sign in through their organization" }),
    attr("emails", "complex", { multiValued: true, subAttributes: valueOf(), description: "The primary (else the work, else the first) is the person's email" }),
    attr("phoneNumbers", "complex", { multiValued: true, subAttributes: valueOf(), description: "The primary (else mobile, else work) in E.164 form is the person's text-message number" }),
    attr("addresses", "complex", {
      multiValued: true,
      subAttributes: ["formatted", "streetAddress", "locality", "region", "postalCode", "country", "type"].map((name) => attr(name, "string"))
        .concat([attr("primary", "boolean")])
    }),
    attr("groups", "complex", { multiValued: true, mutability: "readOnly", subAttributes: valueOf("string") })
  ],
  meta: { resourceType: "Schema", location: `/Schemas/${SCIM_USER}` }
}

const enterpriseSchema = {
  id: SCIM_ENTERPRISE_USER,
  name: "EnterpriseUser",
  description: "Enterprise User",
  attributes: [
    attr("employeeNumber", "string"),
    attr("costCenter", "string"),
    attr("organization", "string"),
    attr("division", "string"),
    attr("department", "string"),
    attr("manager", "complex", {
      description: "The person's manager: this service's id of a person (or their externalId or userName); an id it does not know is kept and linked when that person arrives",
      subAttributes: [attr("value", "string"), attr("$ref", "reference", { referenceTypes: ["User"] }), attr("displayName", "string", { mutability: "readOnly" })]
    })
  ],
  meta: { resourceType: "Schema", location: `/Schemas/${SCIM_ENTERPRISE_USER}` }
}

const groupSchema = {
  id: SCIM_GROUP,
  name: "Group",
  description: "A team of the organization",
  attributes: [
    attr("displayName", "string", { required: true, description: "The team's name" }),
    attr("members", "complex", {
      multiValued: true,
      description: "The team's people (as team viewers, unless this service made them team admins)",
      subAttributes: [attr("value", "string", { mutability: "immutable" }), attr("$ref", "reference", { referenceTypes: ["User"], mutability: "immutable" }), attr("display", "string", { mutability: "readOnly" })]
    })
  ],
  meta: { resourceType: "Schema", location: `/Schemas/${SCIM_GROUP}` }
}

const located = <T extends { readonly meta: { readonly location: string } }>(resource: T, base: string): T => ({
  ...resource,
  meta: { ...resource.meta, location: `${base}${resource.meta.location}` }
})

const list = <T>(resources: ReadonlyArray<T>) => ({
  schemas: [SCIM_LIST_RESPONSE],
  totalResults: resources.length,
  itemsPerPage: resources.length,
  startIndex: 1,
  Resources: resources
})

export const schemas = (base: string) => list([userSchema, enterpriseSchema, groupSchema].map((schema) => located(schema, base)))

export const schemaById = (base: string, id: string) => {
  const found = [userSchema, enterpriseSchema, groupSchema].find((schema) => schema.id.toLowerCase() === id.toLowerCase())
  return found === undefined ? null : located(found, base)
}

const resourceTypes = [
  {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:ResourceType"],
    id: "User",
    name: "User",
    endpoint: "/Users",
    description: "The organization's people",
    schema: SCIM_USER,
    schemaExtensions: [{ schema: SCIM_ENTERPRISE_USER, required: false }],
    meta: { resourceType: "ResourceType", location: "/ResourceTypes/User" }
  },
  {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:ResourceType"],
    id: "Group",
    name: "Group",
    endpoint: "/Groups",
    description: "The organization's teams",
    schema: SCIM_GROUP,
    schemaExtensions: [],
    meta: { resourceType: "ResourceType", location: "/ResourceTypes/Group" }
  }
]

export const resourceTypesList = (base: string) => list(resourceTypes.map((type) => located(type, base)))

export const resourceTypeById = (base: string, id: string) => {
  const found = resourceTypes.find((type) => type.id.toLowerCase() === id.toLowerCase())
  return found === undefined ? null : located(found, base)
}

export const serviceProviderConfig = (base: string, documentationUri: string) => ({
  schemas: ["urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"],
  documentationUri,
  patch: { supported: true },
  bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
  filter: { supported: true, maxResults: SCIM_MAX_RESULTS },
  changePassword: { supported: false },
  sort: { supported: false },
  etag: { supported: true },
  authenticationSchemes: [
    {
      type: "oauthbearertoken",
      name: "Directory connection token",
      description: "The organization's directory-connection token as a bearer token (Authorization: Bearer scim_…)",
      primary: true
    }
  ],
  meta: { resourceType: "ServiceProviderConfig", location: `${base}/ServiceProviderConfig` }
})
