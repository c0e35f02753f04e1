import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Icon } from '../../../components/ui/Icon';
import { ErrorNotice, Notice } from '../../../components/ui/Notice';
import { LoadingBlock } from '../../../components/ui/Skeleton';
import { ManagedByConfig } from '../../config/ManagedByConfig';
import { channelQuery } from '../api/queries';
import { ChannelForm } from './ChannelForm';
import { ChannelTools } from './ChannelTools';

function Back() {
  return (
    <Link to="/notifications" className="back-link">
      <Icon name="chevronLeft" />
      Notifications
    </Link>
  );
}

export function NewChannelScreen() {
  const navigate = useNavigate();
  return (
    <>
      <title>Add channel · Pagewatch</title>
      <Back />
      <h1 className="page-title">Add a notification channel</h1>
      <ChannelForm
        channel={null}
        onSaved={(c) => void navigate(`/notifications/${c.id}`, { replace: true })}
      />
    </>
  );
}

export function EditChannelScreen() {
  const id = Number(useParams().id);
  const { data: channel, error, isPending } = useQuery(channelQuery(id));
  const [saved, setSaved] = useState(false);
  if (isPending) return <LoadingBlock label="Loading channel…" rows={4} />;
  if (error || !channel) return <ErrorNotice error={error} />;
  return (
    <>
      <title>{`${channel.name} · Notifications · Pagewatch`}</title>
      <Back />
      <h1 className="page-title">{channel.name}</h1>
      {saved && <Notice live title="Saved." className="section-gap" />}
      <ChannelTools channel={channel} />
      <ManagedByConfig kind="channels" id={channel.id}>
        <ChannelForm key={channel.updatedAt} channel={channel} onSaved={() => setSaved(true)} />
      </ManagedByConfig>
    </>
  );
}
