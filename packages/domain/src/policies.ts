import { policy } from "./policy.js"

/**
 * Who may call what, for every operation of the service, in one table. The
 * HTTP contract annotates each endpoint with its entry and the MCP tools
 * will do the same; `authorize` (policy.ts) decides them all.
 */
export const policies = {
  me: {
    get: policy({ action: "read who the token belongs to", reach: "self" })
  },
  teams: {
    list: policy({ action: "list teams", reach: "admins-else-self" })
  },
  members: {
    list: policy({ action: "list members", permission: "user.read", reach: "admins-else-self" }),
    get: policy({ action: "read a member", permission: "user.read", reach: "admins-else-self" }),
    invitations: policy({ action: "list invitations", permission: "user.read", reach: "admins-only" }),
    reportingLines: policy({ action: "list reporting lines", permission: "user.read", reach: "admins-only" })
  },
  companyRoles: {
    list: policy({ action: "list company roles", permission: "company-role.read", reach: "organization" }),
    get: policy({
      action: "read a company role",
      permission: "company-role.read",
      reach: "organization",
      denied: { notFound: "No such company role" }
    }),
    duties: policy({
      action: "list a company role's duties",
      permission: "company-role.read",
      reach: "organization",
      denied: { notFound: "No such company role" }
    })
  },
  administration: {
    findings: policy({ action: "read findings", permission: "organization.update", reach: "organization" }),
    orgChartVerification: policy({
      action: "read the org-chart verification",
      permission: "company-role.read",
      reach: "organization"
    }),
    directorySync: policy({ action: "read directory sync", permission: "organization.update", reach: "organization" }),
    directoryEvents: policy({
      action: "read directory-sync events",
      permission: "organization.update",
      reach: "organization"
    })
  }
} as const
