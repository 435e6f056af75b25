/** Pure: the call's title in the web app (DESIGN section 4, "Call title"). */
interface TitleParticipant {
  role: string;
  name: string;
}

export function callTitle(
  participants: readonly TitleParticipant[] | null | undefined,
  labels: readonly string[],
  repLabel: string,
  occurredAt: string | null,
): string {
  const customer = participants?.find((p) => p.role === 'customer');
  if (customer) return customer.name;
  const other = labels.find((label) => label !== repLabel);
  if (other) return other;
  const date = occurredAt ? new Date(occurredAt) : new Date();
  return `Call on ${date.toISOString().slice(0, 10)}`;
}
