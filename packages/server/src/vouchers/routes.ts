import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createPrivilege, readPrivilege } from '@ev/core';
import { requirePrivileges } from '../auth/guard.ts';
import type { AuthUser } from '../auth/session.ts';
import type { Sql } from '../db/client.ts';
import { badRequest } from '../http/errors.ts';
import { writeAudit } from '../resources/audit.ts';
import { campaignFor } from '../resources/hooks/campaign.ts';
import { today } from '../resources/hooks/voucher.ts';
import { fileProblem, ImportFileError, MAX_IMPORT_BYTES, readVoucherWorkbook, voucherTemplate, type VoucherColumns } from './import.ts';

/** Rows per INSERT: one statement of arrays per batch, not a statement per voucher. */
const BATCH = 5_000;

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const TemplateAnswer = { description: 'The template workbook (.xlsx)', content: { [XLSX]: { schema: z.instanceof(Buffer).meta({ type: 'string', format: 'binary' }) } } };
const RowProblem = z.object({ row: z.int(), field: z.string(), code: z.enum(['required', 'format_error', 'expired', 'too_long']), message: z.string() });
/** Bad rows import nothing and are answered 200 with what is wrong in each; else the count imported. */
const ImportAnswer = z.discriminatedUnion('status', [
  z.object({ status: z.literal('success'), count: z.int() }),
  z.object({ status: z.literal('error'), errorCount: z.int(), errors: z.array(RowProblem) }),
]);
type ImportAnswer = z.output<typeof ImportAnswer>;

const campaignNotChosen = () => badRequest('campaignId: campaign_not_chosen', { campaignId: 'campaign_not_chosen' });

/** The multipart body: the campaignId field and the file (any order), the file held in memory up to the limit. */
async function readUpload(req: FastifyRequest): Promise<{ campaignId?: string; file?: Buffer }> {
  const out: { campaignId?: string; file?: Buffer } = {};
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        if (out.file) throw badRequest(fileProblem('oneFile'), { file: 'too_many' });
        out.file = await part.toBuffer();
      } else if (part.fieldname === 'campaignId') out.campaignId = String(part.value ?? '').trim();
    }
  } catch (err: any) {
    if (err?.code === 'FST_REQ_FILE_TOO_LARGE') throw badRequest(fileProblem('tooLarge', { mb: MAX_IMPORT_BYTES / 1024 / 1024 }), { file: 'too_large' });
    if (typeof err?.statusCode === 'number' && err.statusCode < 500 && !err.body) throw badRequest(err.message ?? 'Bad upload', { file: 'invalid' });
    throw err;
  }
  return out;
}

async function insertVouchers(sql: Sql, campaignId: number, rows: VoucherColumns, user: AuthUser): Promise<void> {
  for (let i = 0; i < rows.memberIds.length; i += BATCH) {
    await sql.query(
      `INSERT INTO voucher ("memberId", "campaignId", "voucherExpireDate", "creUserName", status)
       SELECT m, $3::int, d::date, $4::text, 'Valid' FROM unnest($1::text[], $2::text[]) AS x(m, d)`,
      [rows.memberIds.slice(i, i + BATCH), rows.dates.slice(i, i + BATCH), campaignId, user.username],
    );
  }
}

/**
 * POST /api/voucher/import (multipart: campaignId, file) and GET /api/voucher/import/template.
 * A file that cannot be read answers 400 with a message; bad rows answer 200 {status: 'error',
 * errors: [{row, field, code, message}]} and import nothing; otherwise every row is imported in
 * one transaction and answered {status: 'success', count}.
 */
export async function voucherRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Multipart only here: the plugin's parser stays inside this scope.
  await app.register(multipart, { limits: { fileSize: MAX_IMPORT_BYTES, files: 1, fields: 5, parts: 8, fieldSize: 1024 } });

  app.get('/api/voucher/import/template', { schema: { produces: [XLSX], response: { 200: TemplateAnswer } }, config: { doc: { summary: 'The voucher import template (.xlsx)', privileges: [readPrivilege('voucher')] } } }, async (req, reply) => {
    requirePrivileges(req, readPrivilege('voucher'));
    reply
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', 'attachment; filename="Voucher.xlsx"');
    return reply.send(await voucherTemplate(today(app.config.timeZone)));
  });

  // A multipart body is read by the plugin, not validated by a schema: consumes and the description document it.
  app.post('/api/voucher/import', {
    schema: {
      consumes: ['multipart/form-data'],
      description: `multipart/form-data with the fields campaignId (a voucher campaign's id) and file (.xlsx as the template, at most ${MAX_IMPORT_BYTES / 1024 / 1024} MB).`,
      response: { 200: ImportAnswer },
    },
    config: { doc: { summary: 'Import vouchers of a campaign: multipart/form-data with campaignId and file (.xlsx)', privileges: [createPrivilege('voucher')] } },
  }, async (req): Promise<ImportAnswer> => {
    const user = requirePrivileges(req, createPrivilege('voucher'));
    if (!req.isMultipart()) throw badRequest('Send the file as multipart/form-data with the fields campaignId and file', { file: 'required' });
    const upload = await readUpload(req);
    if (!upload.campaignId || !/^\d{1,9}$/.test(upload.campaignId)) throw campaignNotChosen();
    const campaignId = Number(upload.campaignId);
    const campaign = await campaignFor(app.db, user, campaignId);
    if (campaign.isVoucher !== 1) throw campaignNotChosen();
    if (!upload.file?.length) throw badRequest(fileProblem('empty'), { file: 'required' });

    let parsed;
    try {
      parsed = await readVoucherWorkbook(upload.file, today(app.config.timeZone));
    } catch (err) {
      if (err instanceof ImportFileError) throw badRequest(err.message, { file: 'invalid' });
      throw err;
    }
    upload.file = undefined;
    if (parsed.errors.length) return { status: 'error', errorCount: parsed.errors.length, errors: parsed.errors };

    const { rows } = parsed;
    const count = rows.memberIds.length;
    await app.db.tx(async (sql) => {
      // The campaign may have been deleted since the check: lock it while its vouchers go in.
      const [live] = await sql.query<{ name: string }>(
        `SELECT name FROM campaign WHERE id = $1 AND deleted_at IS NULL AND "isVoucher" = 1 FOR SHARE`,
        [campaignId],
      );
      if (!live) throw campaignNotChosen();
      await insertVouchers(sql, campaignId, rows, user);
      await writeAudit(sql, user, {
        action: 'CREATE',
        target: 'voucher',
        targetId: null,
        newData: { import: true, campaignId, campaignName: live.name, count },
        remark: `Imported ${count} vouchers for campaign ${campaignId} (${live.name})`,
      });
    });
    return { status: 'success', count };
  });
}
