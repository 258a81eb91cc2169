import { sql } from "../sql.js"

// Mirrors packages/core/src/me/repo.ts.

export const findMe = (orgId: string, userId: string) =>
  sql`
        SELECT u.id, u.name, u.email, o.id AS org_id, o.name AS org_name, u.org_role,
          COALESCE((SELECT json_agg(json_build_object('id', t.id, 'name', t.name, 'role', tm.role) ORDER BY t.sort_name, t.id)
                      FROM team_members tm JOIN teams t ON t.org_id = tm.org_id AND t.id = tm.team_id
                     WHERE tm.org_id = u.org_id AND tm.user_id = u.id), '[]') AS teams
        FROM users u JOIN organizations o ON o.id = u.org_id
        WHERE u.org_id = ${orgId} AND u.id = ${userId}`
