import type { Queryable } from "../../platform/db/db.js";
import type { FhirOrigin } from "./origin.js";

export interface FhirMessageRow {
  content_hash: string;
  /** the response message's JSON text, as it was sent */
  response: string;
}

/** the request messages processed and what each was answered (fhir_messages: this module's table) */
export const fhirMessageRepo = {
  async find(db: Queryable, tenantId: number, messageId: string): Promise<FhirMessageRow | undefined> {
    const rows = await db.query<FhirMessageRow>(
      "SELECT content_hash, response FROM fhir_messages WHERE tenant_id = $1 AND message_id = $2",
      [tenantId, messageId],
    );
    return rows[0];
  },

  /** a message's answer; a second answer to the same message id is a unique violation (fhir_messages_pkey) */
  async record(
    db: Queryable,
    tenantId: number,
    message: { messageId: string; event: string; contentHash: string; transactionId: string | null },
    response: string,
  ): Promise<void> {
    await db.query(
      `INSERT INTO fhir_messages (tenant_id, message_id, event, content_hash, transaction_id, response)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [tenantId, message.messageId, message.event, message.contentHash, message.transactionId, response],
    );
  },
};

/** what the FHIR area keeps of a prior authorization that came as a NPHIES message */
export interface FhirRequestRow {
  prior_authorization_id: number;
  transaction_id: string;
  origin: FhirOrigin;
  /** responses sent so far; the first answered the request itself */
  responses_sent: number;
  /** of them, complete (not pended) ones: a complete response after the first is a reissue */
  complete_sent: number;
  /** what the last complete response decided (decisionHashOf), null before one was sent */
  sent_decision: string | null;
}

const REQUEST_COLUMNS =
  "prior_authorization_id, transaction_id, origin, responses_sent, complete_sent, sent_decision";

/** the requests that came as messages (fhir_requests: this module's table) */
export const fhirRequestRepo = {
  async insert(tx: Queryable, tenantId: number, row: FhirRequestRow): Promise<void> {
    await tx.query(
      `INSERT INTO fhir_requests (tenant_id, prior_authorization_id, transaction_id, origin, responses_sent,
         complete_sent, sent_decision) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        tenantId,
        row.prior_authorization_id,
        row.transaction_id,
        JSON.stringify(row.origin),
        row.responses_sent,
        row.complete_sent,
        row.sent_decision,
      ],
    );
  },

  async findByPriorAuthId(db: Queryable, priorAuthId: number): Promise<FhirRequestRow | undefined> {
    const rows = await db.query<FhirRequestRow>(
      `SELECT ${REQUEST_COLUMNS} FROM fhir_requests WHERE prior_authorization_id = $1`,
      [priorAuthId],
    );
    return rows[0];
  },

  async findByTransactionId(
    db: Queryable,
    tenantId: number,
    transactionId: string,
  ): Promise<FhirRequestRow | undefined> {
    const rows = await db.query<FhirRequestRow>(
      `SELECT ${REQUEST_COLUMNS} FROM fhir_requests WHERE tenant_id = $1 AND transaction_id = $2`,
      [tenantId, transactionId],
    );
    return rows[0];
  },

  /** one more complete response sent, deciding `decision`; returns the counts after it */
  async countSent(
    tx: Queryable,
    priorAuthId: number,
    decision: string,
  ): Promise<{ responses_sent: number; complete_sent: number }> {
    const rows = await tx.query<{ responses_sent: number; complete_sent: number }>(
      `UPDATE fhir_requests SET responses_sent = responses_sent + 1, complete_sent = complete_sent + 1,
         sent_decision = $2, updated_at = now()
       WHERE prior_authorization_id = $1 RETURNING responses_sent, complete_sent`,
      [priorAuthId, decision],
    );
    const counts = rows[0];
    if (counts === undefined) throw new Error(`no FHIR request for prior authorization ${priorAuthId}`);
    return counts;
  },
};

export interface FhirAttachmentRow {
  id: number;
  prior_authorization_id: number;
  content_type: string | null;
  title: string | null;
  /** the bytes as received, base64-decoded (PGlite reads bytea as Uint8Array, pg as Buffer) */
  data: Uint8Array;
  created_at: Date;
}

/** attachments received in NPHIES communications (fhir_attachments: this module's table) */
export const fhirAttachmentRepo = {
  async insert(
    tx: Queryable,
    tenantId: number,
    priorAuthId: number,
    attachment: { contentType: string | null; title: string | null; data: Buffer },
  ): Promise<number> {
    const rows = await tx.query<{ id: number }>(
      `INSERT INTO fhir_attachments (tenant_id, prior_authorization_id, content_type, title, data)
       VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [tenantId, priorAuthId, attachment.contentType, attachment.title, attachment.data],
    );
    const id = rows[0]?.id;
    if (id === undefined) throw new Error("INSERT ... RETURNING gave no row");
    return id;
  },

  async find(db: Queryable, tenantId: number, id: number): Promise<FhirAttachmentRow | undefined> {
    const rows = await db.query<FhirAttachmentRow>(
      `SELECT id, prior_authorization_id, content_type, title, data, created_at FROM fhir_attachments
       WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id],
    );
    return rows[0];
  },
};
