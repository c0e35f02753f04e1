import '../../styles/slos.css';
import { SlosScreen } from '../../features/slos/components/SlosScreen';

function Slos() {
  return <SlosScreen />;
}

export { Slos as Component };
