import type { Queryable } from "../../platform/db/db.js";

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
