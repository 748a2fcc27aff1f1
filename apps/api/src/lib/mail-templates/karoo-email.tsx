/** @jsxRuntime automatic */
/** @jsxImportSource react */
// Every email Karoo sends, as one React Email component (decision 036): a greeting, paragraphs, an
// optional button, and the sign-off. React escapes every text, so a name or a reason can never
// become markup; the layout is tables and inline styles, which mail clients read. The pragmas above
// keep the automatic JSX runtime whoever compiles the file (esbuild for the build, tsx for `npm run
// dev` and the multi-instance tests, vitest), whatever tsconfig each of them finds.
import { Body, Button, Container, Head, Hr, Html, Preview, Section, Text } from '@react-email/components';

export interface KarooEmailProps {
  greeting: string;
  paragraphs: string[];
  action?: { label: string; url: string } | undefined;
  /** Marketing only (decision 049): the one-click unsubscribe link, in the footer of every marketing email. */
  unsubscribeUrl?: string | undefined;
}

const colours = { text: '#1f2937', muted: '#6b7280', brand: '#c2410c', line: '#e5e7eb', page: '#f9fafb' };

export function KarooEmail({ greeting, paragraphs, action, unsubscribeUrl }: KarooEmailProps) {
  return (
    <Html lang="en-ZA">
      <Head />
      <Preview>{paragraphs[0] ?? greeting}</Preview>
      <Body style={{ backgroundColor: colours.page, fontFamily: 'system-ui, -apple-system, Segoe UI, Roboto, sans-serif', color: colours.text, margin: 0 }}>
        <Container style={{ maxWidth: '560px', margin: '0 auto', padding: '24px', backgroundColor: '#ffffff' }}>
          <Text style={{ fontSize: '20px', fontWeight: 700, color: colours.brand, margin: '0 0 16px' }}>Karoo</Text>
          <Text style={{ fontSize: '16px', lineHeight: '24px' }}>{greeting}</Text>
          {paragraphs.map((paragraph, i) => (
            <Text key={i} style={{ fontSize: '16px', lineHeight: '24px' }}>
              {paragraph}
            </Text>
          ))}
          {action ? (
            <Section style={{ margin: '24px 0' }}>
              <Button href={action.url} style={{ backgroundColor: colours.brand, color: '#ffffff', padding: '12px 20px', borderRadius: '8px', fontSize: '16px', textDecoration: 'none' }}>
                {action.label}
              </Button>
            </Section>
          ) : null}
          <Hr style={{ borderColor: colours.line, margin: '24px 0 12px' }} />
          <Text style={{ fontSize: '14px', color: colours.muted, margin: 0 }}>The Karoo team</Text>
          {unsubscribeUrl ? (
            <Text style={{ fontSize: '12px', color: colours.muted, margin: '12px 0 0' }}>
              You get this email because you chose to hear Karoo news.{' '}
              <a href={unsubscribeUrl} style={{ color: colours.muted }}>
                Unsubscribe
              </a>
            </Text>
          ) : null}
        </Container>
      </Body>
    </Html>
  );
}

/** The text part of the same email: what a client without HTML shows, with the button's link written out. */
export function karooEmailText({ greeting, paragraphs, action, unsubscribeUrl }: KarooEmailProps): string {
  return [
    greeting,
    '',
    ...paragraphs.flatMap((p) => [p, '']),
    ...(action ? [`${action.label}: ${action.url}`, ''] : []),
    'The Karoo team',
    ...(unsubscribeUrl ? ['', `You get this email because you chose to hear Karoo news. Unsubscribe: ${unsubscribeUrl}`] : []),
  ].join('\n');
}
