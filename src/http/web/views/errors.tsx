/** Error pages: 404 (unknown page or a call outside the viewer's scope), 403 (bad form token), 500. */
import { Layout, type LayoutProps } from './layout.js';

export function ErrorPage(
  props: { heading: string; message: string } & Pick<LayoutProps, 'staging' | 'user' | 'csrfToken'>,
): JSX.Element {
  return (
    <Layout title={props.heading} staging={props.staging} user={props.user} csrfToken={props.csrfToken}>
      <section class="narrow">
        <h1 safe>{props.heading}</h1>
        <p safe>{props.message}</p>
        <p>
          <a href="/calls">Go to your calls</a>
        </p>
      </section>
    </Layout>
  );
}

export const NOT_FOUND = {
  heading: 'Page not found',
  message: 'There is nothing here, or you do not have access to it.',
};
export const FORBIDDEN_FORM = {
  heading: 'This form has expired',
  message: 'The form you sent is no longer valid. Go back, reload the page and try again.',
};
export const SERVER_ERROR = {
  heading: 'Something went wrong',
  message: 'The page could not be shown. Try again in a moment.',
};
