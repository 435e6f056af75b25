/** The frame of every settings page: the main layout, a settings sub-navigation, a notice and form errors. */
import { Layout, type LayoutProps } from '../../views/layout.js';

export type SettingsSection = 'users' | 'teams' | 'api-keys' | 'account';

export type PageBase = Required<Pick<LayoutProps, 'staging' | 'csrfToken'>> & {
  user: NonNullable<LayoutProps['user']>;
};

export interface ShellProps extends PageBase {
  title: string;
  section: SettingsSection;
  /** A confirmation after a redirect (fixed texts chosen by code, never echoed from the URL). */
  notice?: string | null;
  /** Problems with the form just sent; shown in an alert the fields point to. */
  errors?: string[];
  children?: JSX.Element | JSX.Element[];
}

const SECTIONS: { id: SettingsSection; href: string; label: string }[] = [
  { id: 'users', href: '/settings/users', label: 'Users' },
  { id: 'teams', href: '/settings/teams', label: 'Teams' },
  { id: 'api-keys', href: '/settings/api-keys', label: 'API keys' },
  { id: 'account', href: '/settings/account', label: 'Account' },
];

export function SettingsShell(props: ShellProps): JSX.Element {
  return (
    <Layout
      title={props.title}
      staging={props.staging}
      user={props.user}
      csrfToken={props.csrfToken}
      current="settings"
    >
      <nav aria-label="Settings" class="subnav">
        <ul>
          {SECTIONS.map((s) => (
            <li>
              <a href={s.href} aria-current={s.id === props.section ? 'page' : undefined}>
                {s.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {props.notice ? (
        <div class="notice" role="status">
          <p safe>{props.notice}</p>
        </div>
      ) : (
        ''
      )}
      {props.errors && props.errors.length ? <FormErrors errors={props.errors} /> : ''}
      {(props.children ?? '') as JSX.Element}
    </Layout>
  );
}

export const FORM_ERRORS_ID = 'form-errors';

export function FormErrors(props: { errors: string[] }): JSX.Element {
  return (
    <div class="alert" role="alert" id={FORM_ERRORS_ID}>
      <p>Please correct the following:</p>
      <ul>
        {props.errors.map((e) => (
          <li safe>{e}</li>
        ))}
      </ul>
    </div>
  );
}

export function Csrf(props: { token: string }): JSX.Element {
  return <input type="hidden" name="_csrf" value={props.token} />;
}

/** A one-button POST form (revoke, deactivate, …). */
export function ActionForm(props: {
  action: string;
  csrfToken: string;
  label: string;
  danger?: boolean;
  children?: JSX.Element | JSX.Element[];
}): JSX.Element {
  return (
    <form method="post" action={props.action} class="action-form">
      <Csrf token={props.csrfToken} />
      {props.children ?? ''}
      <button type="submit" class={props.danger ? 'button danger' : 'button'} safe>
        {props.label}
      </button>
    </form>
  );
}

export function Checkbox(props: {
  name: string;
  value: string;
  id: string;
  checked: boolean;
  label: string;
  hint?: string;
}): JSX.Element {
  return (
    <div class="check">
      <input
        type="checkbox"
        id={props.id}
        name={props.name}
        value={props.value}
        checked={props.checked}
        aria-describedby={props.hint ? `${props.id}-hint` : undefined}
      />
      <label for={props.id} safe>
        {props.label}
      </label>
      {props.hint ? (
        <span class="sub" id={`${props.id}-hint`} safe>
          {props.hint}
        </span>
      ) : (
        ''
      )}
    </div>
  );
}

/** The secret or link shown once, in a read-only field that selects easily. */
export function OneTimeValue(props: { id: string; label: string; value: string; hint: string }): JSX.Element {
  return (
    <div class="field one-time">
      <label for={props.id} safe>
        {props.label}
      </label>
      <input id={props.id} type="text" readonly value={props.value} aria-describedby={`${props.id}-hint`} />
      <p class="sub" id={`${props.id}-hint`} safe>
        {props.hint}
      </p>
    </div>
  );
}
