import type {
  ComponentStatus,
  PublicComponent,
  PublicDay,
  PublicStatusPage,
} from '../../src/status-pages/view-model.js';

const DAY = 86_400_000;

export function days(state: PublicDay['state'] = 'up', count = 90): PublicDay[] {
  const today = Date.UTC(2026, 10, 22);
  return Array.from({ length: count }, (_, i) => ({
    date: new Date(today - (count - 1 - i) * DAY).toISOString().slice(0, 10),
    state,
    uptime: state === 'none' ? null : state === 'up' ? 100 : 99.3,
    outages: state === 'down' ? 1 : 0,
  }));
}

export function component(
  name: string,
  status: ComponentStatus = 'up',
  extra: Partial<PublicComponent> = {},
): PublicComponent {
  return { name, description: '', status, uptime: 99.98, days: days(), ...extra };
}

export function view(extra: Partial<PublicStatusPage> = {}): PublicStatusPage {
  return {
    slug: 'acme',
    title: 'Acme',
    descriptionHtml: '',
    footer: '',
    logoUrl: null,
    theme: { mode: 'auto', accent: '#2563eb' },
    timeZone: 'UTC',
    status: 'operational',
    generatedAt: '2026-11-22T06:00:00.000Z',
    sections: [{ title: 'Core', components: [component('API'), component('Website')] }],
    activeIncidents: [],
    maintenance: [],
    pastIncidents: [],
    subscribeUrl: null,
    ...extra,
  };
}
