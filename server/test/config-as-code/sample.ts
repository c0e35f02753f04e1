/** A configuration using every kind of resource and every way to name a secret. */
export const SAMPLE_YAML = `version: 1
channels:
  - key: ops-webhook
    kind: webhook
    name: Ops webhook
    config:
      url: https://hooks.example.com/pagewatch
    secrets:
      signingSecret: \${env:OPS_SIGNING}
  - key: team-mail
    kind: email
    name: Team mail
    config:
      host: smtp.example.com
      from: pagewatch@example.com
      to: [ops@example.com]
    secrets:
      password: \${env:SMTP_PASSWORD}
monitors:
  - key: api
    type: http
    name: API health
    url: https://api.example.com/health
    headers:
      - name: X-Api-Key
        value: \${env:API_KEY}
      - name: Accept
        secret: false
        value: application/json
    auth:
      kind: bearer
      token: \${env:API_TOKEN}
    tags: [prod, api]
    channels: [ops-webhook]
  - key: db
    type: tcp
    name: Database
    host: db.example.com
    port: 5432
    channels: []
  - key: dns-www
    type: dns
    name: WWW DNS
    host: www.example.com
    recordType: A
    expected: [192.0.2.10]
    channels: [team-mail]
  - key: nightly
    type: push
    name: Nightly job
    interval: 86400
    channels: [ops-webhook, team-mail]
statusPages:
  - key: public
    slug: public
    title: Example status
    sections:
      - title: Services
        components:
          - monitor: api
            displayName: API
          - monitor: db
    subscriptions:
      email: true
      emailChannel: team-mail
maintenance:
  - key: sunday-db
    title: DB upgrade
    timezone: Europe/Berlin
    scope: { kind: monitors, monitors: [db] }
    schedule: { kind: cron, expression: '0 2 * * 0', durationMinutes: 60, from: '2026-01-01T00:00' }
`;

/** Values of the sample's references. */
export const SAMPLE_ENV = {
  OPS_SIGNING: 'signing-secret-1',
  SMTP_PASSWORD: 'smtp-password-1',
  API_KEY: 'api-key-1',
  API_TOKEN: 'api-token-1',
};
