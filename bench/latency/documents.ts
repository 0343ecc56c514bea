/** The documents the latency bench translates: a UI strings file, a long markdown guide, batch items. */

/** 30 UI strings (~450 o200k tokens of text, ~660 output tokens per target at 1.5×). */
export function uiStringsFile(): string {
  const strings: Record<string, string> = {
    title: 'Project settings',
    subtitle: 'Change how your team works on this project and who can see it.',
    save: 'Save changes',
    cancel: 'Discard your changes and go back to the overview',
    saved: 'Your changes were saved {time} ago.',
    name_label: 'Project name, as shown to everyone in your workspace',
    name_help: 'Use a short name that your team will recognise in lists and notifications.',
    visibility: 'Who can see this project?',
    visibility_private: 'Only the members you invite can open the project and its files.',
    visibility_team: 'Everyone in {team} can find the project and ask to join it.',
    members: 'Members and their roles',
    invite: 'Invite people by e-mail address, separated by commas',
    invite_sent: 'We sent {count, plural, one {# invitation} other {# invitations}} to your colleagues.',
    role_owner: 'Owner: can change every setting, including billing and deletion',
    role_editor: 'Editor: can change files and comments, but not the settings',
    role_viewer: 'Viewer: can read files and leave comments on them',
    remove_member: 'Remove {name} from this project? They lose access at once.',
    danger_zone: 'Danger zone: these actions cannot be undone',
    archive: 'Archive the project and keep it read-only for everyone',
    archive_confirm: 'Type the project name to confirm that you want to archive it.',
    delete: 'Delete the project and every file in it, permanently',
    delete_warning: 'Deleted projects cannot be restored, not even by our support team.',
    export: 'Download a copy of all files as a ZIP archive before you leave',
    export_ready: 'Your export is ready. The link stays valid for <b>24 hours</b>.',
    notifications: 'Send me an e-mail when someone comments on a file I follow',
    digest: 'Send a weekly summary of the activity in this project every Monday',
    language: 'Language used for e-mails and notifications from this project',
    error_generic: 'Something went wrong on our side. Please try again in a minute.',
    error_offline: 'You are offline. Changes are kept on this device until you reconnect.',
    footer: 'Need help? Read the <a>guide to project settings</a> or write to us.',
  };
  return `${JSON.stringify(strings, null, 2)}\n`;
}

const TOPICS = ['accounts', 'billing', 'exports', 'permissions', 'webhooks', 'search', 'backups', 'reports'];

/** One section of the guide: a heading, prose, a list, a link, inline code and a code block, its text its own. */
function section(i: number): string {
  const topic = TOPICS[i % TOPICS.length]!;
  const n = i + 1;
  return [
    `## ${n}. Working with ${topic} in workspace ${n}`,
    '',
    `Section ${n} explains how ${topic} behave in a workspace with ${n * 3} projects. Every change you make here is recorded in the activity log of workspace ${n}, so that administrators can see who changed what and when, and undo a mistake within ${n + 20} days.`,
    '',
    `Before you start step ${n}, make sure you have the *editor* role on project ${n}. Read the [overview of roles](https://example.com/docs/roles#${topic}) if you are not sure which role you have in workspace ${n}, or ask its owner to check it for you.`,
    '',
    `- Open the **${topic}** page of workspace ${n} from the menu on the left.`,
    `- Choose project ${n} and press \`Edit\` next to its ${topic}.`,
    `- Review the summary of the ${n * 2} changes at the bottom of the page before you confirm.`,
    '',
    `The command-line tool does the same in one step, which is useful when you manage ${topic} for ${n + 10} projects at once:`,
    '',
    '```sh',
    `workspace ${topic} update --project demo-${n} --confirm`,
    '```',
    '',
    `> Changes to ${topic} in workspace ${n} take effect within a minute. If nothing happens after ${n % 7 + 3} minutes, reload the page; if the problem stays, contact support and mention request ${n * 7919}.`,
    '',
  ].join('\n');
}

/** A markdown guide whose translatable text is about `tokens` o200k tokens (a section is ~250). */
export function markdownGuide(tokens = 40_000): string {
  const sections = Math.ceil(tokens / 250);
  return `# Administration guide\n\n${Array.from({ length: sections }, (_, i) => section(i)).join('\n')}`;
}

/** `count` short items of one or two sentences, as a batch of support snippets. */
export function batchItems(count = 100): { id: string; content: string; format: 'plain' }[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `snippet-${i + 1}`,
    content: `Ticket ${i + 1}: the customer cannot open the ${TOPICS[i % TOPICS.length]} page after signing in. We asked them to clear the cache and try again, and will follow up tomorrow.`,
    format: 'plain' as const,
  }));
}

/** Five short UI strings, the smallest request a screen makes (~30 o200k tokens of text). */
export function fewStrings(): string {
  const strings: Record<string, string> = {
    save: 'Save changes',
    cancel: 'Discard your changes',
    saved: 'Your changes were saved.',
    offline: 'You are offline. Changes are kept on this device.',
    retry: 'Something went wrong. Please try again.',
  };
  return `${JSON.stringify(strings, null, 2)}\n`;
}

const ACTIONS = ['Open', 'Rename', 'Share', 'Archive', 'Duplicate', 'Move', 'Export', 'Restore', 'Pin', 'Review'];
const THINGS = ['the report', 'this folder', 'your invoice', 'the team calendar', 'every draft', 'the shared link', 'this comment', 'the backup'];
const AFTER = [
  '',
  ' now',
  ' for everyone in {team}',
  ' and notify the owner by e-mail',
  ' before the end of the billing period, so nothing is lost',
  '? You can undo this within {count} days.',
];

/** `count` UI strings of 2–25 tokens (a mid-sized app's strings file), keys and texts varied. */
export function manyStringsFile(count = 200): string {
  const strings: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const action = ACTIONS[i % ACTIONS.length]!;
    const thing = THINGS[(i * 3) % THINGS.length]!;
    const after = AFTER[(i * 7) % AFTER.length]!;
    strings[`screen_${Math.floor(i / 20)}.item_${i}`] = `${action} ${thing}${after}`;
  }
  return `${JSON.stringify(strings, null, 2)}\n`;
}
