import '../../styles/cluster.css';
import { RequireRole } from '../../features/auth/components/RequireRole';
import { ClusterScreen } from '../../features/settings/components/cluster/ClusterScreen';

function Cluster() {
  return (
    <RequireRole role="admin" doing="Seeing the cluster">
      <title>Cluster · Settings · Pagewatch</title>
      <ClusterScreen />
    </RequireRole>
  );
}

export { Cluster as Component };
