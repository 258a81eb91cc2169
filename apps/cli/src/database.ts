import { Layer } from "effect"
import { Authenticator } from "@tks/core/auth/service"
import { DirectoryConnections } from "@tks/core/directory/connections"
import { JournalReads } from "@tks/core/journal/reads"
import { FixtureImporter } from "@tks/core/org-import/importer"
import { OAuthResource } from "@tks/core/oauth/service"
import { OrganizationDomains } from "@tks/core/organization-domains/service"
import { DatabaseLive } from "@tks/db/client"
import { MigrationsLive } from "@tks/db/migrate"

/**
 * DATABASE_URL, or the embedded database in DATA_DIR, with the schema
 * brought up to date first: an operator's first command on a new data
 * directory works without a separate `migrate`.
 */
const MigratedDatabase = MigrationsLive.pipe(Layer.provideMerge(DatabaseLive))

/** What the organization (its identity provider and email domains too), token, directory and audit commands use; built only by the commands that need a database. */
export const CliServices = Layer.mergeAll(
  FixtureImporter.Default,
  Authenticator.Default,
  OAuthResource.Default,
  OrganizationDomains.Default,
  DirectoryConnections.Default,
  JournalReads.Default
).pipe(
  Layer.provideMerge(MigratedDatabase)
)
