import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { sloListQuery } from '../api/slos';
import { HealthChip, SloFigures } from './SloFigures';

/** The monitor page's SLOs: each promise it is part of, with its budget. Hidden when none. */
export function SloCard({ monitorId }: { monitorId: number }) {
  const list = useQuery(sloListQuery(monitorId));
  const items = list.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <section className="panel section-gap" aria-labelledby="slo-card-heading">
      <div className="slo-item__head">
        <h2 id="slo-card-heading" className="panel__title">
          SLOs
        </h2>
        <Link to="/slos">All SLOs</Link>
      </div>
      <ul className="slo-card-list">
        {items.map((slo) => (
          <li key={slo.id} aria-label={slo.name}>
            <div className="slo-item__head">
              <h3 className="slo-card__name">{slo.name}</h3>
              <HealthChip slo={slo} />
            </div>
            <SloFigures slo={slo} />
          </li>
        ))}
      </ul>
    </section>
  );
}
