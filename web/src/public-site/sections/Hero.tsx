import { Button, Container } from '@mantine/core';
import { IconCheck, IconShieldCheck } from '@tabler/icons-react';
import classes from '../public-site.module.css';
import { HeroIllustration } from './HeroIllustration';
import { sectionIds } from './ids';

export function Hero({ onBookDemo, onSignUp }: { onBookDemo(): void; onSignUp(): void }) {
  return (
    <section
      id={sectionIds.top}
      className={classes.hero}
      aria-labelledby="hero-title"
      tabIndex={-1}
    >
      <Container size="lg" className={classes.heroGrid}>
        <div>
          <span className={classes.heroBadge}>
            <IconShieldCheck size={18} aria-hidden="true" />
            Caller location for emergency services
          </span>
          <h1 id="hero-title" className={classes.heroTitle}>
            Find the caller. <em>In seconds,</em> with their consent.
          </h1>
          <p className={classes.heroLead}>
            Locus lets 911 centers, search and rescue, the coast guard and law enforcement locate a
            caller&apos;s phone: an automatic lookup first, then a secure text link the caller can
            accept. Their location streams live to your map.
          </p>
          <div className={classes.heroActions}>
            <Button
              size="lg"
              className={classes.primaryButton}
              color="#c8102e"
              onClick={onBookDemo}
            >
              Book a Demo
            </Button>
            <Button size="lg" variant="outline" className={classes.ghostButton} onClick={onSignUp}>
              Sign Up Now
            </Button>
          </div>
          <ul className={classes.heroChecks}>
            {[
              'Nothing for the caller to install',
              'Any smartphone browser',
              'Live, in order, none lost',
            ].map((text) => (
              <li key={text}>
                <IconCheck size={18} color="#ff8a9b" aria-hidden="true" />
                {text}
              </li>
            ))}
          </ul>
        </div>
        <div className={classes.heroArt}>
          <HeroIllustration />
        </div>
      </Container>
    </section>
  );
}
