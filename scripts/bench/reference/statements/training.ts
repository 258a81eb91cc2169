import { sql } from "../sql.js"

// Mirrors packages/core/src/training/repo.ts (obligations, enrollments).

export const obligations = (orgId: string, userId: string) =>
  sql`
        SELECT o.id, o.item_type, o.item_id, COALESCE(l.title, t.name, i.name, '') AS item_name,
          o.required, o.status, o.due_date,
          (o.status = 'active' AND o.due_date IS NOT NULL AND o.due_date < now()) AS overdue,
          o.created_at
        FROM obligations o
        LEFT JOIN lessons l ON o.item_type = 'lesson' AND l.org_id = o.org_id AND l.id = o.item_id
        LEFT JOIN topics t ON o.item_type = 'topic' AND t.org_id = o.org_id AND t.id = o.item_id
        LEFT JOIN items i ON o.item_type = 'item' AND i.org_id = o.org_id AND i.id = o.item_id
        WHERE o.org_id = ${orgId} AND o.user_id = ${userId} AND o.status IN ('active', 'completed')
        ORDER BY o.created_at DESC, o.id DESC`

export const enrollments = (orgId: string, userId: string) =>
  sql`
        SELECT e.id, e.lesson_id, l.title, e.status, e.enrolled_at, e.started_at, e.completed_at, e.score,
          (SELECT o.due_date FROM obligations o
            WHERE o.org_id = e.org_id AND o.user_id = e.user_id AND o.item_type = 'lesson' AND o.item_id = e.lesson_id
            ORDER BY (o.status = 'active') DESC, o.created_at DESC, o.id DESC
            LIMIT 1) AS due_date
        FROM enrollments e
        JOIN lessons l ON l.org_id = e.org_id AND l.id = e.lesson_id
        WHERE e.org_id = ${orgId} AND e.user_id = ${userId}
        ORDER BY e.enrolled_at DESC, e.id DESC`
