import '../../styles/account.css';
import { Outlet } from 'react-router';
import { SettingsNav } from '../../features/settings/components/SettingsNav';

function Settings() {
  return (
    <>
      <div className="page-head">
        <h1 className="page-title">Settings</h1>
      </div>
      <div className="settings-layout">
        <SettingsNav />
        <div className="settings-layout__body">
          <Outlet />
        </div>
      </div>
    </>
  );
}

export { Settings as Component };
