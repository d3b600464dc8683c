import { Anchor, Text } from '@mantine/core';
import { usePublicConfig } from '../public-site/public-config';
import { ComingSoon } from './ComingSoon';

export function DashboardComingSoon() {
  return (
    <ComingSoon
      title="Dispatcher map"
      summary="This is where you will locate a caller's phone, with the caller's consent, and follow it live on the map."
      features={[
        'Enter a number, or pick numbers from your team’s call lists, and press Locate.',
        'Locus first tries an automatic lookup, then offers to text the caller a link that shares their location.',
        'Live locations with their accuracy circle, in English, Spanish, French or Mandarin text messages.',
        'Transfer an active search to another dispatcher on your team.',
      ]}
    />
  );
}

export function AdminUsersComingSoon() {
  return (
    <ComingSoon
      title="Users"
      summary="Manage the people who can locate callers for your agency."
      features={[
        'Search your team’s users and see who has confirmed their email.',
        'Add people to a team with a role, or invite several at once.',
        'Change roles and remove access when someone leaves.',
      ]}
    />
  );
}

export function AdminOverwatchComingSoon() {
  return (
    <ComingSoon
      title="Overwatch settings"
      summary="Set up the live multi-number views your team watches in Overwatch."
      features={[
        'Choose the numbers and call lists each Overwatch view follows.',
        'Edit or retire a view.',
      ]}
    />
  );
}

export function AdminVerificationComingSoon() {
  return (
    <ComingSoon
      title="Verification"
      summary="Keep access to Locus limited to real public-safety staff."
      features={[
        'Clear the email domains of verified agencies.',
        'Review accounts from agencies that are not listed yet.',
      ]}
    />
  );
}

export function OverwatchComingSoon() {
  return (
    <ComingSoon
      title="Overwatch"
      summary="Follow many numbers at once, live, on one map."
      features={[
        'Send location requests to a whole call list in one go.',
        'See every caller who shares their location, as it updates.',
      ]}
    />
  );
}

export function TrainingComingSoon() {
  const videos = usePublicConfig().data?.links.trainingVideos ?? null;
  return (
    <ComingSoon
      title="Training"
      summary="Short videos that walk dispatchers and admins through Locus."
      features={[
        'Locating a caller, from the first text message to ending the search.',
        'Tracking several numbers and transferring a search.',
        'Managing users, teams and metrics as an admin.',
      ]}
    >
      {videos && (
        <Text size="sm">
          Until then, the current videos are on{' '}
          <Anchor href={videos} target="_blank" rel="noopener noreferrer" underline="always">
            our training channel
          </Anchor>
          .
        </Text>
      )}
    </ComingSoon>
  );
}
