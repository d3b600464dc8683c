import { sql, type Kysely } from 'kysely';

// The audit trail an agency reads (issue 11): each row says which team it belongs to (so a team
// admin sees only their own team's trail) and the client address it came from. Rows are
// evidence: the database itself refuses to change or delete one, whatever the application does.
// The one change it lets through is the foreign key's own: deleting a never-confirmed duplicate
// account (users/repo.ts confirmAddress) sets its rows' actor to null, and nothing else.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table audit_log
      add column team_id uuid references teams (id),
      add column ip text;
    create index audit_log_team_at on audit_log (team_id, at desc, id desc);
    create index audit_log_at on audit_log (at desc, id desc);
    create index audit_log_actor_at on audit_log (actor_user_id, at desc);

    create function audit_log_append_only() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' and old.actor_user_id is not null and new.actor_user_id is null
        and (new.id, new.at, new.action, new.subject, new.detail, new.team_id, new.ip)
          is not distinct from (old.id, old.at, old.action, old.subject, old.detail, old.team_id, old.ip)
      then
        return new;
      end if;
      raise exception 'audit_log rows are never changed or deleted' using errcode = 'insufficient_privilege';
    end;
    $$;
    create trigger audit_log_append_only
      before update or delete on audit_log
      for each row execute function audit_log_append_only();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger audit_log_append_only on audit_log;
    drop function audit_log_append_only();
    drop index audit_log_actor_at;
    drop index audit_log_at;
    drop index audit_log_team_at;
    alter table audit_log drop column ip, drop column team_id;
  `.execute(db);
}
