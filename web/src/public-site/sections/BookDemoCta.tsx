import { Button, Container } from '@mantine/core';
import classes from '../public-site.module.css';
import { sectionIds } from './ids';

export function BookDemoCta({
  onBookDemo,
  onSignUp,
  flushTop = false,
}: {
  onBookDemo(): void;
  onSignUp(): void;
  /** Set when the section above already ends in white space. */
  flushTop?: boolean;
}) {
  return (
    <section
      id={sectionIds.bookDemo}
      className={classes.section}
      aria-labelledby="book-demo-title"
      tabIndex={-1}
      style={flushTop ? { paddingTop: 0 } : undefined}
    >
      <Container size="lg">
        <div className={classes.cta}>
          <div style={{ position: 'relative', zIndex: 1 }}>
            <h2 id="book-demo-title" className={classes.ctaTitle}>
              See Locus at work for your agency
            </h2>
            <p className={classes.ctaText}>
              Book a 30-minute demo with our team: we walk through a live search, Overwatch and the
              admin portal, and answer your questions about setup, training and privacy.
            </p>
          </div>
          <div className={classes.ctaActions}>
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
        </div>
      </Container>
    </section>
  );
}
