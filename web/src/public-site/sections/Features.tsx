import { Container } from '@mantine/core';
import {
  IconApi,
  IconArrowsExchange,
  IconChartBar,
  IconLanguage,
  IconMap2,
  IconRadar2,
  IconSearch,
  IconUsersGroup,
  type Icon,
} from '@tabler/icons-react';
import { features, type FeatureKey } from '../content';
import classes from '../public-site.module.css';
import { sectionIds } from './ids';

const icons: Record<FeatureKey, Icon> = {
  'standard-search': IconSearch,
  overwatch: IconRadar2,
  'multi-language-sms': IconLanguage,
  'search-transfer': IconArrowsExchange,
  'admin-portal': IconUsersGroup,
  analytics: IconChartBar,
  map: IconMap2,
  api: IconApi,
};

/** "Platform": the eight features of SPEC.md §1. */
export function Features() {
  return (
    <section
      id={sectionIds.platform}
      className={classes.section}
      aria-labelledby="platform-title"
      tabIndex={-1}
    >
      <Container size="lg">
        <span className={classes.eyebrow}>Platform</span>
        <h2 id="platform-title" className={classes.sectionTitle}>
          Everything a dispatcher needs to find someone
        </h2>
        <p className={classes.lead}>
          From a single caller to a multi-day search, Locus keeps every location, every message and
          every hand-off in one place, and your team in control of who sees what.
        </p>
        <ul className={classes.featureGrid} style={{ listStyle: 'none', padding: 0 }}>
          {features.map(({ key, title, description }) => {
            const FeatureIcon = icons[key];
            return (
              <li key={key} className={classes.featureCard}>
                <span className={classes.featureIcon}>
                  <FeatureIcon size={24} stroke={1.8} aria-hidden="true" />
                </span>
                <h3 className={classes.cardTitle}>{title}</h3>
                <p className={classes.cardText}>{description}</p>
              </li>
            );
          })}
        </ul>
      </Container>
    </section>
  );
}
