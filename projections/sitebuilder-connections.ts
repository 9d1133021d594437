/**
 * Site-builder connections: one row per user, written only by the events of
 * stream `sitebuilder-<user_id>`. Serves GET /api/sitebuilder/connection and
 * the publish route's "is a site connected" check. Holds no token.
 */
import type { Knex } from 'knex';
import { defineProjection } from './framework';

const T = 'sitebuilder_connections';

export type ConnectionStatus = 'not_connected' | 'connected' | 'disconnected' | 'revoked';

export const sitebuilderConnectionsProjection = defineProjection({
  name: 'sitebuilder-connections',
  migrationName: '0130_projection_sitebuilder_connections',
  areas: ['sitebuilder'],
  tables: [T],
  keys: { [T]: ['user_id'] },
  async createTables(knex, name) {
    await knex.schema.createTable(name(T), (t) => {
      t.text('user_id').primary();
      t.text('status').notNullable();
      t.text('connection_id');
      t.jsonb('scopes');
      t.text('site_name');
      t.text('site_url');
      t.timestamp('connected_at', { useTz: true });
      t.timestamp('access_expires_at', { useTz: true });
      t.timestamp('last_refreshed_at', { useTz: true });
      t.timestamp('disconnected_at', { useTz: true });
      t.text('disconnect_reason');
      t.boolean('revoked_at_builder');
      t.timestamp('authorization_started_at', { useTz: true });
      t.timestamp('authorization_expires_at', { useTz: true });
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
  },
  handlers: {
    SitebuilderAuthorizationStarted: (e) => [
      {
        op: 'upsert',
        table: T,
        key: { user_id: e.data.user_id },
        insert: {
          status: 'not_connected',
          authorization_started_at: e.recordedAt,
          authorization_expires_at: e.data.expires_at,
          updated_at: e.recordedAt,
        },
        update: {
          authorization_started_at: e.recordedAt,
          authorization_expires_at: e.data.expires_at,
          updated_at: e.recordedAt,
        },
      },
    ],
    SitebuilderConnected: (e) => {
      const row = {
        status: 'connected',
        connection_id: e.data.connection_id,
        scopes: e.data.scopes,
        site_name: e.data.site_name,
        site_url: e.data.site_url,
        connected_at: e.recordedAt,
        access_expires_at: e.data.access_expires_at,
        last_refreshed_at: null,
        disconnected_at: null,
        disconnect_reason: null,
        revoked_at_builder: null,
        updated_at: e.recordedAt,
      };
      return [{ op: 'upsert', table: T, key: { user_id: e.data.user_id }, insert: row, update: row }];
    },
    SitebuilderTokenRefreshed: (e) => [
      {
        op: 'update',
        table: T,
        key: { user_id: e.data.user_id },
        set: { access_expires_at: e.data.access_expires_at, last_refreshed_at: e.recordedAt, updated_at: e.recordedAt },
        whereIn: { column: 'connection_id', values: [e.data.connection_id] },
      },
    ],
    SitebuilderDisconnected: (e) => [
      {
        op: 'update',
        table: T,
        key: { user_id: e.data.user_id },
        set: {
          status: e.data.reason === 'revoked_by_builder' ? 'revoked' : 'disconnected',
          disconnected_at: e.recordedAt,
          disconnect_reason: e.data.reason,
          revoked_at_builder: e.data.revoked_at_builder,
          updated_at: e.recordedAt,
        },
        whereIn: { column: 'connection_id', values: [e.data.connection_id] },
      },
    ],
  },
});

export interface ConnectionRecord {
  status: ConnectionStatus;
  connected: boolean;
  connection_id: string | null;
  site: { name: string | null; url: string | null } | null;
  scopes: string[];
  connected_at: string | null;
  access_token_expires_at: string | null;
  last_refreshed_at: string | null;
  disconnected_at: string | null;
  disconnect_reason: string | null;
  revoked_at_builder: boolean | null;
  pending_authorization_expires_at: string | null;
}

const iso = (v: unknown) => (v ? new Date(v as string).toISOString() : null);

/** Read query: the caller's connection (status `not_connected` when there is none). */
export async function getConnection(db: Knex, userId: string, now = new Date()): Promise<ConnectionRecord> {
  const r = await db(T).where({ user_id: userId }).first();
  const pending = r?.authorization_expires_at && new Date(r.authorization_expires_at) > now;
  const connectedOnce = !!r?.connection_id;
  return {
    status: (r?.status as ConnectionStatus) ?? 'not_connected',
    connected: r?.status === 'connected',
    connection_id: r?.connection_id ?? null,
    site: connectedOnce ? { name: r.site_name, url: r.site_url } : null,
    scopes: r?.scopes ?? [],
    connected_at: iso(r?.connected_at),
    access_token_expires_at: r?.status === 'connected' ? iso(r.access_expires_at) : null,
    last_refreshed_at: iso(r?.last_refreshed_at),
    disconnected_at: iso(r?.disconnected_at),
    disconnect_reason: r?.disconnect_reason ?? null,
    revoked_at_builder: r?.revoked_at_builder ?? null,
    pending_authorization_expires_at: pending ? iso(r.authorization_expires_at) : null,
  };
}
