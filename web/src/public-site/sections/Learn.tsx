import { Container } from '@mantine/core';
import { howItWorks } from '../content';
import classes from '../public-site.module.css';
import { DemoVideo } from './DemoVideo';
import { sectionIds } from './ids';

/** "Learn": how a search works, and the demo video when one is configured. */
export function Learn({ demoVideoUrl }: { demoVideoUrl: string | null }) {
  return (
    <section
      id={sectionIds.learn}
      className={`${classes.section} ${classes.sectionAlt}`}
      aria-labelledby="learn-title"
      tabIndex={-1}
    >
      <Container size="lg">
        <div className={classes.centered} style={{ maxWidth: 720 }}>
          <span className={classes.eyebrow}>Learn</span>
          <h2 id="learn-title" className={classes.sectionTitle}>
            How Locus finds a caller
          </h2>
          <p className={`${classes.lead} ${classes.centered}`}>
            Three steps, with nothing for the caller to install and no new equipment for your
            center.
          </p>
        </div>
        <ol className={classes.steps}>
          {howItWorks.map(({ title, description }) => (
            <li key={title} className={classes.step}>
              <h3 className={classes.cardTitle}>{title}</h3>
              <p className={classes.cardText}>{description}</p>
            </li>
          ))}
        </ol>
        {demoVideoUrl !== null && <DemoVideo url={demoVideoUrl} />}
      </Container>
    </section>
  );
}
