/** What POST /v1/jobs answers and GET /v1/jobs/{id} shows (docs/contract.md §3.11). */
import { Type, type Static } from '@sinclair/typebox';
import { JOB_STATUSES } from '../../jobs/status-filters.js';
import { MemoryCounts, ModelName, Translations } from './translate.js';

const strict = { additionalProperties: false } as const;
const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601, UTC, milliseconds.' });
const JobId = Type.String({ format: 'uuid' });

export const JobCreated = Type.Object({ job_id: JobId, status: Type.Literal('pending'), created_at: Timestamp }, strict);

export const JobParams = Type.Object({ id: Type.String({ description: 'The job_id POST /v1/jobs answered.' }) });

const WaitingJob = Type.Object(
  {
    job_id: JobId,
    status: Type.Union([Type.Literal('pending'), Type.Literal('processing')]),
    created_at: Timestamp,
    updated_at: Timestamp,
    completed_at: Type.Null(),
    queue_position: Type.Optional(
      Type.Integer({ minimum: 1, description: '1 + the pending or processing jobs of all users created before this one; omitted when it cannot be counted.' }),
    ),
    cancel_requested_at: Type.Optional(
      Type.String({ format: 'date-time', description: 'Processing, and canceled by its owner: the job stops before its next model call.' }),
    ),
  },
  strict,
);

/** A finished job's tokens: charged for a completed one, for the calls made before it stopped for a canceled one. */
const JobTokens = {
  input_tokens: Type.Integer({ minimum: 0 }),
  output_tokens: Type.Integer({ minimum: 0 }),
  total_tokens: Type.Integer({ minimum: 0 }),
  model: ModelName,
};

const CompletedJob = Type.Object(
  {
    job_id: JobId,
    status: Type.Literal('completed'),
    created_at: Timestamp,
    updated_at: Timestamp,
    completed_at: Timestamp,
    translations: Translations,
    usage: Type.Object({ ...JobTokens, ...MemoryCounts }, strict),
  },
  strict,
);

const FailedJob = Type.Object({ job_id: JobId, status: Type.Literal('failed'), error: Type.String({ description: 'A plain sentence, no internals.' }) }, strict);

const CanceledJob = Type.Object(
  {
    job_id: JobId,
    status: Type.Literal('canceled'),
    created_at: Timestamp,
    updated_at: Timestamp,
    canceled_at: Timestamp,
    usage: Type.Object(JobTokens, { ...strict, description: 'What the model calls made before the job stopped cost, charged; zero when it never ran.' }),
  },
  strict,
);

export const JobView = Type.Union([WaitingJob, CompletedJob, FailedJob, CanceledJob], {
  description: 'Always 200, whatever the status. While the job waits, poll again after the Retry-After seconds this answer carries.',
});

const JobStatus = Type.Union(JOB_STATUSES.map((status) => Type.Literal(status)));

export const JobListQuery = Type.Object({
  status: Type.Optional(Type.String({ enum: [...JOB_STATUSES], description: 'Only jobs with this status; another value is 400.' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Jobs per page.' })),
  cursor: Type.Optional(Type.String({ description: 'next_cursor of the previous page.' })),
});

const JobSummary = Type.Object(
  { job_id: JobId, status: JobStatus, model: ModelName, created_at: Timestamp, updated_at: Timestamp },
  { ...strict, description: 'A job without its document or result: GET /v1/jobs/{id} has those.' },
);

export const JobList = Type.Object(
  {
    jobs: Type.Array(JobSummary, { description: 'Newest first.' }),
    next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as cursor for the next page; null on the last page.' }),
  },
  strict,
);

export type JobCreated = Static<typeof JobCreated>;
export type JobView = Static<typeof JobView>;
