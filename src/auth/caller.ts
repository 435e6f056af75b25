/** Who is calling the API: a key tied to its account, its team and the admin who created it. */
export interface ApiCaller {
  keyId: string;
  accountId: string;
  teamId: string;
  /** The key's team was deleted: calls without a rep cannot be filed (team_not_configured). */
  teamDeleted: boolean;
  creatorId: string;
  creatorEmail: string;
  creatorName: string;
  scopes: ReadonlySet<string>;
}
