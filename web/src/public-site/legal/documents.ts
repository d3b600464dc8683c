/**
 * The Terms of Use and Service and the Privacy Policy, as data: the dialogs render them, and
 * tests check that the commitments SPEC.md §5 and §9 require are in them. Plain strings only,
 * so this module has no dependencies.
 */

/** A paragraph, or a bulleted list. */
export type LegalBlock = string | { list: readonly string[] };

export interface LegalSection {
  id: string;
  heading: string;
  body: readonly LegalBlock[];
}

export interface LegalDocument {
  id: 'terms' | 'privacy';
  title: string;
  /** Shown under the title; ISO date. */
  lastUpdated: string;
  summary: string;
  sections: readonly LegalSection[];
}

/** SPEC.md §5 and §9. Shared by both documents so they cannot disagree. */
export const legalConstants = {
  minimumAge: 13,
  liabilityCapUsd: 100,
  noticeDays: 30,
  arbitrationState: 'Nevada',
  /** The location history of an ended search is deleted after this many days (LOCATION_RETENTION_DAYS). */
  locationRetentionDays: 90,
} as const;

const { minimumAge, liabilityCapUsd, noticeDays, arbitrationState, locationRetentionDays } =
  legalConstants;

export const termsOfUse: LegalDocument = {
  id: 'terms',
  title: 'Terms of Use and Service',
  lastUpdated: '2026-11-01',
  summary:
    'These terms govern your use of Locus. In short: use Locus only for legitimate public-safety work, keep your account accurate and secure, and respect the consent of the people you locate.',
  sections: [
    {
      id: 'agreement',
      heading: '1. Agreement to these terms',
      body: [
        'Locus ("Locus", "we", "us") provides a web application that lets emergency and public-safety staff locate a caller\u2019s phone with the holder\u2019s consent, together with the related text messages, websites, APIs and support (the "Services").',
        'By creating an account, signing in, opening a location link we sent you, or otherwise using the Services, you agree to these Terms of Use and Service (the "Terms") and to our Privacy Policy. If you use the Services on behalf of an agency, you confirm that you are authorized to accept these Terms for it. If your agency has signed a separate written agreement with us, that agreement prevails where it conflicts with these Terms.',
        'If you do not agree to these Terms, do not use the Services.',
      ],
    },
    {
      id: 'eligibility',
      heading: '2. Who may use Locus',
      body: [
        `You must be ${minimumAge} years of age or older to use the Services, including to share your location through a link we text you. Eligible users are ${minimumAge} or older; if you are younger than ${minimumAge}, do not use the Services, and in an emergency call 911 directly.`,
        'Accounts on the dispatcher console are for staff of emergency-services and public-safety organizations, such as public safety answering points (PSAPs), search and rescue teams, the coast guard, fire and EMS services and law enforcement agencies, and for others we approve in writing. We may verify your employment or your agency\u2019s e-mail domain before activating an account, and we may refuse or end access for anyone who does not qualify.',
      ],
    },
    {
      id: 'accounts',
      heading: '3. Your account',
      body: [
        'You must give us accurate and complete information when you register, and keep it up to date: your name, your work e-mail address, your phone number and your agency.',
        'Account information must be confirmed every year. At least once every twelve months we will ask you to confirm that your details and your agency are still correct. If you do not confirm them within the period stated in our request, we may suspend the account until you do.',
        'Your account is personal. Do not share your password or let anyone else sign in as you. Keep your password secret, sign out on shared computers, and tell us and your team administrator at once if you believe someone else has used your account. You are responsible for what is done through your account until you have told us.',
        'Your agency\u2019s team administrators can see and manage the accounts on their team, including the searches those accounts make, and can remove you from the team.',
      ],
    },
    {
      id: 'acceptable-use',
      heading: '4. Acceptable use',
      body: [
        'You may use the Services only for lawful public-safety purposes in the course of your duties, such as locating a person who has called for help, is missing or is in danger. In particular, you must not:',
        {
          list: [
            'locate anyone for a personal, commercial or otherwise non-official reason, or to stalk, harass or intimidate anyone;',
            'mislead a person about who is asking for their location or why;',
            'send text messages through the Services to anyone who has not contacted, or is not the subject of, an active public-safety matter;',
            'attempt to get around the consent the person gives in their browser, or to obtain location data in any other way than the Services provide;',
            'probe, scan or test the vulnerability of the Services, interfere with their operation, or access data you are not authorized to see;',
            'copy, resell or reverse engineer the Services, except where the law allows it despite this restriction.',
          ],
        },
        'We keep an audit trail of sign-ins and searches. We may investigate suspected misuse, share what we find with your agency, and suspend access while we do.',
      ],
    },
    {
      id: 'sms',
      heading: '5. Text messages (SMS)',
      body: [
        'When a dispatcher asks for your location, Locus sends you a text message on the dispatcher\u2019s behalf with a link to a secure page. Opening the link does not share anything: your browser asks for your permission first, and you can stop sharing at any time by closing the page or turning off location access for it.',
        'Messages are sent only in connection with an active public-safety matter, usually one or a few messages per request. Message and data rates may apply. Carriers are not liable for delayed or undelivered messages.',
        'Text STOP to the short code the message came from to opt out: we will confirm and send you no further messages from that number. Text HELP to the same short code for help, or contact us as described below. Opting out does not stop emergency services from reaching you by other means, and in an emergency you should always call 911.',
      ],
    },
    {
      id: 'location',
      heading: '6. Location information and its limits',
      body: [
        'Locations come from the phone\u2019s own location services (through the browser, with the holder\u2019s consent) or from an emergency-data provider. Their accuracy depends on the device, its settings, the surroundings and the network. Every location is shown with the accuracy radius the device reports, and may still be wrong.',
        'Locus supports, but does not replace, your agency\u2019s 911 systems, procedures and professional judgment. Do not rely on Locus as the only means of locating a person, and always confirm a location by other means where you can.',
        'How we collect, use, share and delete location information is described in our Privacy Policy.',
      ],
    },
    {
      id: 'availability',
      heading: '7. Availability and changes to the Services',
      body: [
        'We work to keep the Services available around the clock and provide support 24/7, but we do not promise that they will be uninterrupted or error-free. Planned maintenance is announced in advance where possible. We may change, add or remove features; where a change materially reduces what your agency has paid for, we will tell your agency first.',
      ],
    },
    {
      id: 'fees',
      heading: '8. Fees',
      body: [
        'Agencies pay for the Services under their order or agreement with us. Individual users are not charged. If your agency\u2019s subscription ends, access for its users ends too.',
      ],
    },
    {
      id: 'intellectual-property',
      heading: '9. Our software, your data and feedback',
      body: [
        'The Services, including the software, design and documentation, belong to Locus and its licensors. We grant you a limited, non-exclusive, non-transferable right to use them under these Terms while your account is active.',
        'Your agency owns the records of its searches. We process them only to provide the Services, as described in the Privacy Policy and your agency\u2019s agreement.',
        'If you send us suggestions or feedback, we may use them without obligation to you.',
      ],
    },
    {
      id: 'api',
      heading: '10. API access',
      body: [
        'If your agency uses our API, keep its credentials as secret as a password, use them only for your agency\u2019s own systems, and respect the rate limits in our documentation. We may revoke credentials that are exposed or misused.',
      ],
    },
    {
      id: 'termination',
      heading: '11. Suspension and termination',
      body: [
        'You may stop using the Services at any time, and your team administrator may close your account. We may suspend or close an account that breaches these Terms, that has not been confirmed as section 3 requires, or whose agency no longer has access, and we may do so without notice where it is needed to protect people or the Services. Sections 9 and 12 to 15 continue to apply after your account is closed.',
      ],
    },
    {
      id: 'disclaimers',
      heading: '12. Disclaimers',
      body: [
        'To the fullest extent the law allows, the Services are provided "as is" and "as available", without warranties of any kind, express or implied, including warranties of merchantability, fitness for a particular purpose, accuracy and non-infringement. We do not warrant that any location is accurate or that any message will be delivered.',
      ],
    },
    {
      id: 'liability',
      heading: '13. Limitation of liability',
      body: [
        'To the fullest extent the law allows, Locus and its officers, employees, suppliers and partners will not be liable for any indirect, incidental, special, consequential or punitive damages, or for any loss of data, profits or goodwill, arising out of or relating to the Services or these Terms, even if we were told they were possible.',
        `To the fullest extent the law allows, our total liability for all claims arising out of or relating to the Services or these Terms is limited to $${liabilityCapUsd} (one hundred U.S. dollars). Some jurisdictions do not allow these limitations, so they may not apply to you in full.`,
      ],
    },
    {
      id: 'indemnity',
      heading: '14. Indemnity',
      body: [
        'To the extent the law allows, you will defend and indemnify Locus against claims by third parties arising from your misuse of the Services or your breach of these Terms. This section does not apply to a government agency that the law prevents from giving such an indemnity.',
      ],
    },
    {
      id: 'disputes',
      heading: '15. Disputes and binding arbitration',
      body: [
        `Please contact us first: most concerns can be resolved quickly that way. If we cannot resolve a dispute within 60 days, you and Locus agree that any dispute arising out of or relating to the Services or these Terms will be resolved by binding arbitration in ${arbitrationState}, administered by the American Arbitration Association under its rules then in force, before a single arbitrator. Judgment on the award may be entered in any court with jurisdiction.`,
        'Either party may instead bring an individual claim in small-claims court, or ask a court for urgent relief to protect intellectual property or the security of the Services. Disputes are resolved individually: neither you nor Locus may bring or join a class or representative action.',
        `These Terms are governed by the laws of the State of ${arbitrationState} and applicable United States federal law, without regard to conflict-of-law rules. Where the law requires a government agency\u2019s disputes to be handled differently, that requirement applies instead.`,
      ],
    },
    {
      id: 'changes',
      heading: '16. Changes to these terms',
      body: [
        `We may update these Terms. We will give at least ${noticeDays} days\u2019 notice of any change, by e-mail to the address on your account and with a notice in the Services, and a change takes effect only after those ${noticeDays} days have passed. If you keep using the Services after a change takes effect, you accept the updated Terms; if you do not agree, stop using the Services and close your account.`,
      ],
    },
    {
      id: 'contact',
      heading: '17. Contact',
      body: [
        'Questions about these Terms: use the Support link at the foot of every page of our website, or reply to any e-mail we have sent you. For help with a text message we sent you, text HELP to the short code it came from.',
      ],
    },
  ],
};

export const privacyPolicy: LegalDocument = {
  id: 'privacy',
  title: 'Privacy Policy',
  lastUpdated: '2026-11-01',
  summary:
    'Locus exists to find people who need help, and only with their consent. This policy explains what we collect, why, who can see it, how long we keep it and the choices you have.',
  sections: [
    {
      id: 'scope',
      heading: '1. Who we are and what this policy covers',
      body: [
        'Locus provides caller location for emergency and public-safety services. This policy covers the dispatcher console, the page a caller opens from our text message, our public website, our API and our support.',
        'For the searches an agency runs, the agency decides why and when a location is requested, and we process the information on its behalf and under its instructions. For our website, our own accounts and our marketing, Locus decides and is responsible.',
      ],
    },
    {
      id: 'collect',
      heading: '2. What we collect',
      body: [
        'From staff who use the console:',
        {
          list: [
            'your name, work e-mail address, phone number and agency, and your acceptance of our Terms;',
            'your password, which we never store: we keep only a one-way hash of it;',
            'records of your sign-ins, the searches you run and the messages you send, so your agency and we can audit use of the Services.',
          ],
        },
        'About the people being located (callers):',
        {
          list: [
            'the phone number the dispatcher enters, and the text messages sent to and from it through Locus;',
            'location data, only with the caller\u2019s consent, from the phone\u2019s browser: latitude, longitude, the accuracy radius, altitude, heading and speed where the device provides them, and the time each location was captured;',
            'whether the caller\u2019s page is connected, in the foreground and sharing, so the dispatcher knows if the location is current;',
            'messages the caller types into the page\u2019s chat, if the agency uses it;',
            'where an agency has enabled it, a location supplied for an emergency call by an emergency-data provider, which we receive only for that agency\u2019s search.',
          ],
        },
        'From visitors to our website: what you send us in the Book a Demo form (name, e-mail, phone, organization and comment), and technical information such as IP address, browser type and the pages requested, which our servers log for security.',
        'We do not use advertising cookies or trackers, and we do not build profiles of callers.',
      ],
    },
    {
      id: 'location-consent',
      heading: '3. How location sharing works',
      body: [
        'A caller shares a location only by opening the link we text them and allowing it when their browser asks. There is no app to install and nothing runs in the background: sharing stops when the caller closes the page or turns off location access, and the dispatcher sees that it has stopped. Denying permission shares nothing.',
        'We do not collect a caller\u2019s location for any purpose other than the search for which it was requested.',
      ],
    },
    {
      id: 'use',
      heading: '4. How we use information',
      body: [
        {
          list: [
            'to show a caller\u2019s location to the agency that asked for it, live and as a history for that search;',
            'to send the text messages a dispatcher requests, and to honor STOP and HELP replies;',
            'to run, secure and support the Services: signing you in, preventing abuse, investigating incidents and answering support requests;',
            'to give agencies usage statistics about their own team;',
            'to reply to demo requests and to tell account holders about changes to the Services and to these policies.',
          ],
        },
        'We do not sell personal information, we do not share it for advertising, and we do not use callers\u2019 locations to train models or for any purpose of our own.',
      ],
    },
    {
      id: 'sharing',
      heading: '5. Who sees it',
      body: [
        'A caller\u2019s location is visible only to the agency that requested it: the dispatcher running the search, a colleague on the same team to whom the dispatcher transfers the search, and that team\u2019s administrators. Other agencies cannot see it.',
        'Locus staff can access personal information only when needed to provide support you ask for, to keep the Services secure, or to comply with the law; that access is limited to named people and recorded.',
        'We use service providers for hosting, sending text messages and e-mail, and, where an agency enables it, emergency-data lookups and translation. They receive only what they need to do that work, under contracts that forbid any other use.',
        'If Locus is involved in a merger or acquisition, personal information may transfer to the successor, which will remain bound by this policy.',
      ],
    },
    {
      id: 'law-enforcement',
      heading: '6. Requests from law enforcement and government',
      body: [
        'Agencies using Locus hold their own records and answer requests for them under their own rules. When anyone else asks Locus for information, we disclose it only in response to valid legal process, such as a subpoena, court order or search warrant, and only the information that process requires. We review every request and push back on requests that are overly broad or lack a legal basis.',
        'Unless the law or a court order forbids it, we tell the agency whose records are requested before we disclose them, so that it can respond or object. In an emergency involving danger of death or serious physical injury, we may disclose information without delay where the law permits it.',
      ],
    },
    {
      id: 'retention',
      heading: '7. How long we keep it',
      body: [
        {
          list: [
            `Location history and the events of a search are deleted automatically ${locationRetentionDays} days after the search ends, unless the agency\u2019s agreement sets a different period (for example, to meet its records-retention law).`,
            'Records of text messages, kept to honor opt-outs and to answer questions about delivery, are kept for as long as the law requires carriers and senders to keep them.',
            'Account information is kept while the account is open and deleted within 90 days after it is closed, except for the audit records your agency or the law requires us to keep.',
            'Demo requests are kept for up to two years, unless you ask us to delete them sooner.',
            'Server logs are kept for a short period for security and troubleshooting, and then deleted.',
          ],
        },
      ],
    },
    {
      id: 'security',
      heading: '8. Security',
      body: [
        'All traffic to and from Locus is encrypted in transit. Passwords are stored only as slow, salted hashes; sign-in, confirmation and reset codes are random, single-use and stored hashed; repeated failed sign-ins lock the account; and every request is checked against the signed-in user\u2019s role and team. Access to production systems is restricted and logged.',
        'No system is perfectly secure. If a breach affects your personal information, we will notify you and the affected agencies as the law requires, and without undue delay.',
      ],
    },
    {
      id: 'choices',
      heading: '9. Your choices and rights',
      body: [
        {
          list: [
            'Callers can refuse to share, or stop sharing at any time. Text STOP to the short code a message came from to receive no more messages from it, or HELP for help.',
            'Account holders can see and correct their details in their profile and must confirm them every year; your team administrator or our support can close your account.',
            'Depending on where you live, you may have the right to access, correct, delete or receive a copy of your personal information, or to object to how it is used. Where an agency controls the information, we will pass your request to it and help it respond.',
          ],
        },
        'We will not treat you differently for exercising these rights.',
      ],
    },
    {
      id: 'children',
      heading: '10. Children',
      body: [
        `The Services are for people ${minimumAge} or older. We do not knowingly collect personal information from children under ${minimumAge}. If you believe a child under ${minimumAge} has given us personal information, contact us and we will delete it, except where an agency needs it for an active emergency.`,
      ],
    },
    {
      id: 'changes',
      heading: '11. Changes to this policy',
      body: [
        `We will give at least ${noticeDays} days\u2019 notice of any change to this policy, by e-mail to account holders and with a notice on our website. Privacy Policy changes take effect ${noticeDays} days after notice. The date at the top shows when the policy last changed.`,
      ],
    },
    {
      id: 'contact',
      heading: '12. Contact',
      body: [
        'Questions, requests and complaints about privacy: use the Support link at the foot of every page of our website and choose "Privacy", or reply to any e-mail we have sent you. If you are not satisfied with our answer, you may contact your local data-protection or consumer-protection authority.',
      ],
    },
  ],
};
