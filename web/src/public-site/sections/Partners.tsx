import { Container } from '@mantine/core';
import {
  IconAmbulance,
  IconAnchor,
  IconHeadset,
  IconMountain,
  IconSchool,
  IconShieldCheck,
  type Icon,
} from '@tabler/icons-react';
import type { Ref } from 'react';
import { agencyTypes, type AgencyKey } from '../content';
import classes from '../public-site.module.css';
import { sectionIds } from './ids';

const icons: Record<AgencyKey, Icon> = {
  psap: IconHeadset,
  sar: IconMountain,
  'coast-guard': IconAnchor,
  'law-enforcement': IconShieldCheck,
  'fire-ems': IconAmbulance,
  campus: IconSchool,
};

/** Partner highlights: who Locus is built with and for. */
export function Partners({ ref }: { ref?: Ref<HTMLElement> }) {
  return (
    <section
      ref={ref}
      id={sectionIds.partners}
      className={`${classes.section} ${classes.sectionAlt}`}
      aria-labelledby="partners-title"
      tabIndex={-1}
    >
      <Container size="lg">
        <div className={classes.centered} style={{ maxWidth: 720 }}>
          <span className={classes.eyebrow}>Our partners</span>
          <h2 id="partners-title" className={classes.sectionTitle}>
            Built with the people who answer the call
          </h2>
          <p className={`${classes.lead} ${classes.centered}`}>
            Locus grew out of work with dispatchers and field teams across public safety. These are
            the agencies we build for, and whose feedback shapes every release.
          </p>
        </div>
        <ul className={classes.agencyGrid} style={{ listStyle: 'none', padding: 0 }}>
          {agencyTypes.map(({ key, title, description }) => {
            const AgencyIcon = icons[key];
            return (
              <li key={key} className={classes.agencyCard}>
                <span className={classes.agencyIcon}>
                  <AgencyIcon size={24} stroke={1.7} aria-hidden="true" />
                </span>
                <div>
                  <h3 className={classes.cardTitle}>{title}</h3>
                  <p className={classes.cardText}>{description}</p>
                </div>
              </li>
            );
          })}
        </ul>
      </Container>
    </section>
  );
}
