import { ApiKeysScreen } from '../../features/settings/components/api-keys/ApiKeysScreen';

function ApiKeys() {
  return (
    <>
      <title>API keys · Settings · Pagewatch</title>
      <ApiKeysScreen />
    </>
  );
}

export { ApiKeys as Component };
