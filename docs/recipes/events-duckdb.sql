-- An export of the event store (npm run events -- export --out events.jsonl) loaded into DuckDB, and two questions
-- answered from it. Run: .tools/venv/bin/python scripts/duckdb-recipe.py events.jsonl (docs/events.md).

-- One row per event; data and metadata stay JSON (their fields depend on the type: docs/events.md).
CREATE OR REPLACE TABLE events AS
SELECT *
  FROM read_json('events.jsonl', format = 'newline_delimited', columns = {
         eventId: 'VARCHAR', streamId: 'VARCHAR', streamPosition: 'BIGINT', globalPosition: 'BIGINT',
         transactionId: 'BIGINT', type: 'VARCHAR', schemaVersion: 'INTEGER', data: 'JSON', metadata: 'JSON',
         recordedAt: 'TIMESTAMPTZ', taskType: 'VARCHAR'});

-- Tokens by model: every metered vendor call is one UsageRecorded.
SELECT data->>'provider' AS provider,
       data->>'model' AS model,
       sum((data->>'calls')::BIGINT) AS calls,
       sum((data->>'tokens_in')::BIGINT) AS tokens_in,
       sum((data->>'tokens_out')::BIGINT) AS tokens_out,
       round(sum((data->>'cost')::DOUBLE), 6) AS cost
  FROM events
 WHERE type = 'UsageRecorded'
 GROUP BY ALL
 ORDER BY tokens_in + tokens_out DESC, model;

-- Task durations by task type: from a task's first event (TaskStarted) to its last one (completed, failed or
-- cancelled), over the tasks that ended.
SELECT task_type,
       count(*) AS tasks,
       count(*) FILTER (WHERE outcome = 'TaskCompleted') AS completed,
       round(median(seconds), 3) AS median_seconds,
       round(max(seconds), 3) AS max_seconds
  FROM (SELECT streamId,
               any_value(taskType) AS task_type,
               arg_max(type, streamPosition) AS outcome,
               epoch(max(recordedAt)) - epoch(min(recordedAt)) AS seconds
          FROM events
         WHERE taskType IS NOT NULL
         GROUP BY streamId)
 WHERE outcome IN ('TaskCompleted', 'TaskFailed', 'TaskCancelled')
 GROUP BY task_type
 ORDER BY tasks DESC, task_type;
