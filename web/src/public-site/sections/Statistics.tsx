import { Container } from '@mantine/core';
import { statistics } from '../content';
import classes from '../public-site.module.css';
import { sectionIds } from './ids';

export function Statistics() {
  return (
    <section
      id={sectionIds.statistics}
      className={classes.stats}
      aria-label="Locus in numbers"
      tabIndex={-1}
    >
      <Container size="lg">
        <ul className={classes.statList}>
          {statistics.map(({ value, label }) => (
            // The space between the spans keeps the sentence whole for screen readers and search.
            <li key={label} className={classes.stat}>
              <span className={classes.statValue}>{value}</span>{' '}
              <span className={classes.statLabel}>{label}</span>
            </li>
          ))}
        </ul>
      </Container>
    </section>
  );
}
