import type { ConfigApplyReport, ConfigFileProblem, ConfigFileStatus } from '@pagewatch/contract';
import { checkFiles, printProblem } from '../../config-as-code/check.js';
import { referencedVariables } from '../../config-as-code/secrets.js';
import type { RequestContext } from '../../domain/actor.js';
import { AppError } from '../../lib/errors.js';
import type { Logger } from '../../lib/logger.js';
import { audit } from '../audit/record.js';
import { applyDocument } from '../config/apply.js';
import type { ServiceDeps } from '../deps.js';
import { locateReference, readConfigSource, type ReadFiles } from './files.js';
import { asStatusProblem, locateMerged, showProblem } from './locate.js';
import { writeStatus } from './status.js';

export interface ConfigFileOptions {
  /** The file or folder, absolute. */
  path: string;
  prune: boolean;
  /** The server's environment, for `${env:NAME}`. */
  env: Readonly<Record<string, string | undefined>>;
}

/** Who applies the files: the audit log names it. */
export const configFileContext: RequestContext = {
  actor: { type: 'system', label: 'config-file' },
  ip: null,
  userAgent: null,
};

type Outcome = { ok: true; report: ConfigApplyReport } | { ok: false; errors: ConfigFileProblem[] };

function missingVariables(read: ReadFiles, names: string[], env: ConfigFileOptions['env']) {
  return names
    .filter((name) => env[name] === undefined)
    .map((name) => ({
      ...locateReference(read.files, name),
      path: '',
      message: `The environment variable ${name} is not set on the server`,
    }));
}

/** An apply's refusal, each field error placed in the file that wrote it. */
function refusalProblems(read: ReadFiles, err: AppError): ConfigFileProblem[] {
  const errors = err.errors?.length ? err.errors : [{ path: '', message: err.message }];
  return errors.map((e) => ({ ...locateMerged(read.files, e.path), message: e.message }));
}

async function check(
  deps: ServiceDeps,
  read: ReadFiles,
  options: ConfigFileOptions,
  logger: Logger,
): Promise<Outcome> {
  const checked = checkFiles(read.files);
  for (const w of checked.problems.filter((p) => p.severity === 'warning')) {
    logger.warn(`config file: ${printProblem(w)}`);
  }
  if (!checked.document) {
    const errors = checked.problems.filter((p) => p.severity === 'error').map(asStatusProblem);
    return { ok: false, errors };
  }
  const missing = missingVariables(read, referencedVariables(checked.document), options.env);
  if (missing.length > 0) return { ok: false, errors: missing };
  const env = Object.fromEntries(
    Object.entries(options.env).filter((e): e is [string, string] => e[1] !== undefined),
  );
  try {
    const { report } = await applyDocument(deps, configFileContext, checked.document, {
      env,
      prune: options.prune,
    });
    return { ok: true, report };
  } catch (err) {
    if (err instanceof AppError && err.type !== 'internal') {
      return { ok: false, errors: refusalProblems(read, err) };
    }
    throw err;
  }
}

const counts = (report: ConfigApplyReport) => {
  const kinds = [report.channels, report.monitors, report.statusPages, report.maintenance];
  const n = (f: 'created' | 'updated' | 'detached' | 'deleted') =>
    kinds.reduce((sum, k) => sum + k[f].length, 0);
  return {
    created: n('created'),
    updated: n('updated'),
    detached: n('detached'),
    deleted: n('deleted'),
  };
};

/**
 * Reads, checks and applies the files once (one transaction: a failure leaves the running
 * configuration as it was), then stores the status. `previous` is the status so far.
 */
export async function applyConfigFiles(
  deps: ServiceDeps,
  options: ConfigFileOptions,
  logger: Logger,
  previous: ConfigFileStatus,
): Promise<ConfigFileStatus> {
  const now = deps.clock.now();
  const read = readConfigSource(options.path);
  const outcome: Outcome =
    'problems' in read
      ? { ok: false, errors: read.problems }
      : await check(deps, read, options, logger);
  const base = { enabled: true, source: options.path, lastAttemptAt: new Date(now).toISOString() };
  let status: ConfigFileStatus;
  if (outcome.ok) {
    const c = counts(outcome.report);
    const changed = c.created + c.updated + c.detached + c.deleted > 0;
    const summary =
      `Applied ${options.path}: ${c.created} created, ${c.updated} updated, ` +
      `${c.detached} detached, ${c.deleted} deleted`;
    logger.info({ config: options.path, ...c }, `config file: ${summary}`);
    if (changed) await audit(deps, configFileContext, 'config.file_applied', null, summary);
    status = {
      ...base,
      ok: true,
      lastAppliedAt: base.lastAttemptAt,
      appliedHash: 'hash' in read ? read.hash : null,
      errors: [],
    };
  } else {
    for (const p of outcome.errors) logger.error(`config file: ${showProblem(p)}`);
    logger.error(
      { config: options.path, errors: outcome.errors.length },
      'config file: not applied; the previous configuration stays',
    );
    status = { ...previous, ...base, ok: false, errors: outcome.errors };
  }
  await writeStatus(deps.repos, status, now);
  return status;
}
