import { logoTypes, statusPageLimits } from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import { looksLikeMarkup, sniffImageType } from '../../domain/image-type.js';
import { logoHash } from '../../lib/logo-hash.js';
import { AppError, notFound, validationFailed } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { publishChange } from './event.js';
import { withArticle } from '../../domain/grammar.js';

const accepted = 'Upload a PNG, JPEG, WebP or GIF image';
const refuse = (message: string) =>
  validationFailed([{ path: 'logo', message, code: 'invalid_type' }], message);

/** Checks the bytes are the image type they claim to be; SVG is refused (it can carry scripts). */
function verify(bytes: Buffer, declared: string | undefined): (typeof logoTypes)[number] {
  if (bytes.length === 0) throw refuse(`The logo is empty. ${accepted}`);
  if (bytes.length > statusPageLimits.logoBytesMax)
    throw new AppError('payload_too_large', 'Logos are limited to 256 KiB');
  const type = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'image/svg+xml' || looksLikeMarkup(bytes))
    throw refuse(`SVG logos are not accepted because they can carry scripts. ${accepted}`);
  const sniffed = sniffImageType(bytes);
  if (!sniffed) throw refuse(`This file is not an image we accept. ${accepted}`);
  if (!(logoTypes as readonly string[]).includes(type))
    throw refuse(`Send the image with its Content-Type (${logoTypes.join(', ')})`);
  if (sniffed !== type)
    throw refuse(
      `The file is ${withArticle(sniffed.slice(6).toUpperCase())} image, not ${type}. ${accepted}`,
    );
  return sniffed;
}

/** Stores a page's logo; its hash prefix changes the logo URL so caches never show the old one. */
export async function uploadLogo(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
  bytes: Buffer,
  declaredType: string | undefined,
): Promise<void> {
  const page = await deps.repos.statusPages.findById(id);
  if (!page) throw notFound('Status page');
  const type = verify(bytes, declaredType);
  const hash = logoHash(bytes);
  await deps.repos.statusPages.setLogo(id, { bytes, type, hash }, deps.clock.now());
  await audit(
    deps,
    ctx,
    'status_page.logo_set',
    { type: 'status_page', id },
    `Uploaded ${withArticle(type)} logo (${bytes.length} bytes) for status page "${page.title}"`,
  );
  publishChange(deps, 'updated', id);
}
