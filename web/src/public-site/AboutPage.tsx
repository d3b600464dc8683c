import { Container } from '@mantine/core';
import {
  IconBolt,
  IconHeartHandshake,
  IconLock,
  IconShieldLock,
  type Icon,
} from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { PrivacyPolicyDialog } from './dialogs';
import classes from './public-site.module.css';
import { scrollToTop } from './scroll';
import { BookDemoCta } from './sections/BookDemoCta';
import { SiteFrame, type PublicPageProps } from './SiteFrame';

const values: ReadonlyArray<{ icon: Icon; title: string; text: string }> = [
  {
    icon: IconLock,
    title: 'Consent first',
    text: 'A caller shares their location by choice, in their own browser, and can stop at any time. We never work around that choice, and we make sure every request says clearly who is asking.',
  },
  {
    icon: IconBolt,
    title: 'Every second counts',
    text: 'Locations travel from the phone to the dispatcher in milliseconds, in order, and none is lost if a connection drops. We benchmark that path and hold it to account.',
  },
  {
    icon: IconShieldLock,
    title: 'Private by design',
    text: 'Only the agency that asked for a location can see it. Location history is deleted automatically after the retention period, and every access is logged.',
  },
  {
    icon: IconHeartHandshake,
    title: 'Built with dispatchers',
    text: 'Our roadmap comes from the people on the console: call-takers, supervisors, search managers and the admins who keep their teams running.',
  },
];

/** The public about page at /about. */
export function AboutPage({ onSignIn, onSignUp }: PublicPageProps) {
  const [privacyOpen, setPrivacyOpen] = useState(false);

  // Arriving from the bottom of the landing page must not keep its scroll position.
  useEffect(() => scrollToTop({ instant: true }), []);

  return (
    <SiteFrame page="about" onSignIn={onSignIn} onSignUp={onSignUp}>
      {({ openBookDemo }) => (
        <>
          <section className={classes.aboutHero} aria-labelledby="about-title">
            <Container size="lg" style={{ position: 'relative' }}>
              <span className={classes.heroBadge}>About Locus</span>
              <h1 id="about-title" className={classes.heroTitle} style={{ maxWidth: 820 }}>
                We help emergency services find the people who call them.
              </h1>
              <p className={classes.heroLead} style={{ maxWidth: 680 }}>
                Too many callers cannot say where they are: they are lost on a trail, injured on the
                road, out on the water, or simply too frightened to explain. Locus gives the people
                who answer those calls a fast, respectful way to find them.
              </p>
            </Container>
          </section>

          <section className={classes.section} aria-labelledby="mission-title">
            <Container size="lg">
              <span className={classes.eyebrow}>Our mission</span>
              <h2 id="mission-title" className={classes.sectionTitle}>
                Location in seconds, with consent, for every agency
              </h2>
              <div className={classes.prose}>
                <p>
                  Wireless location delivered with a 911 call is often too coarse to send a crew to,
                  and many calls for help reach agencies that receive no location at all: search and
                  rescue teams, coast guard stations, campus and venue safety offices.
                </p>
                <p>
                  Locus closes that gap. A dispatcher enters the caller&apos;s number; Locus first
                  tries an automatic lookup through an emergency-data provider and, if that fails,
                  texts the caller a secure link. When the caller agrees, their phone&apos;s own
                  location, usually far more precise, streams live to the dispatcher&apos;s map.
                </p>
                <p>
                  We build it alongside dispatchers, search managers and public-safety specialists,
                  and we support our customers around the clock, because emergencies do not keep
                  office hours.
                </p>
              </div>
            </Container>
          </section>

          <section
            className={`${classes.section} ${classes.sectionAlt}`}
            aria-labelledby="values-title"
          >
            <Container size="lg">
              <span className={classes.eyebrow}>What we believe</span>
              <h2 id="values-title" className={classes.sectionTitle}>
                The principles behind every release
              </h2>
              <ul className={classes.valueGrid} style={{ listStyle: 'none', padding: 0 }}>
                {values.map(({ icon: ValueIcon, title, text }) => (
                  <li key={title} className={classes.featureCard}>
                    <span className={classes.featureIcon}>
                      <ValueIcon size={24} stroke={1.8} aria-hidden="true" />
                    </span>
                    <h3 className={classes.cardTitle}>{title}</h3>
                    <p className={classes.cardText}>{text}</p>
                  </li>
                ))}
              </ul>
            </Container>
          </section>

          <section className={classes.section} aria-labelledby="data-title">
            <Container size="lg">
              <span className={classes.eyebrow}>Your data</span>
              <h2 id="data-title" className={classes.sectionTitle}>
                How we handle location data
              </h2>
              <div className={classes.prose}>
                <ul style={{ paddingLeft: 22, margin: '0 0 16px' }}>
                  <li>
                    A caller&apos;s browser shares a location only after the caller allows it, and
                    sharing ends when they close the page.
                  </li>
                  <li>Only the agency that requested a location can see it.</li>
                  <li>
                    Location history is deleted automatically 90 days after a search ends, unless
                    the agency&apos;s records-retention rules require otherwise.
                  </li>
                  <li>We never sell personal information or use it for advertising.</li>
                </ul>
                <p>
                  The details are in our{' '}
                  <button
                    type="button"
                    className={classes.inlineButton}
                    onClick={() => setPrivacyOpen(true)}
                  >
                    Privacy Policy
                  </button>
                  .
                </p>
              </div>
            </Container>
          </section>

          <BookDemoCta onBookDemo={openBookDemo} onSignUp={onSignUp} flushTop />
          <PrivacyPolicyDialog
            opened={privacyOpen}
            onClose={() => setPrivacyOpen(false)}
            onAccept={() => setPrivacyOpen(false)}
          />
        </>
      )}
    </SiteFrame>
  );
}
