import type { SubscriberNotice } from '@pagewatch/contract';

interface PageRef {
  id: number;
  slug: string;
  title: string;
  customDomain: string | null;
}

/**
 * Where links in a subscriber's messages point: the configured public URL, else the page's
 * custom domain, else the origin the visitor subscribed from.
 */
export function noticeBaseUrl(
  page: PageRef,
  publicUrl: string | null | undefined,
  subscribedFrom: string,
): string {
  if (publicUrl) return publicUrl.replace(/\/+$/, '');
  if (page.customDomain) return `https://${page.customDomain}`;
  return subscribedFrom.replace(/\/+$/, '');
}

const pageOf = (page: PageRef): SubscriberNotice['page'] => ({
  id: page.id,
  slug: page.slug,
  title: page.title,
});

export function confirmNotice(page: PageRef, baseUrl: string, at: number): SubscriberNotice {
  return {
    kind: 'confirm',
    at: new Date(at).toISOString(),
    baseUrl,
    page: pageOf(page),
    incident: null,
    maintenance: null,
  };
}

export function incidentNotice(
  page: PageRef,
  baseUrl: string,
  incident: NonNullable<SubscriberNotice['incident']>,
  at: number,
): SubscriberNotice {
  return {
    kind: 'incident',
    at: new Date(at).toISOString(),
    baseUrl,
    page: pageOf(page),
    incident,
    maintenance: null,
  };
}

export function maintenanceNotice(
  page: PageRef,
  baseUrl: string,
  maintenance: NonNullable<SubscriberNotice['maintenance']>,
  at: number,
): SubscriberNotice {
  return {
    kind: 'maintenance',
    at: new Date(at).toISOString(),
    baseUrl,
    page: pageOf(page),
    incident: null,
    maintenance,
  };
}

/** Links every message carries; the unsubscribe link is in all of them. */
export function noticeLinks(notice: SubscriberNotice, token: string) {
  const page = `${notice.baseUrl}/status/${notice.page.slug}`;
  return {
    page,
    confirm: `${page}/confirm/${token}`,
    unsubscribe: `${page}/unsubscribe/${token}`,
    incident: notice.incident ? `${page}/incidents/${notice.incident.id}` : null,
  };
}
