/** Form fields shared by the pages' filter forms. */

export interface SelectOption {
  value: string;
  label: string;
}

function Option(props: { value: string; selected: boolean; children: string }): JSX.Element {
  return (
    <option value={props.value} selected={props.selected} safe>
      {props.children}
    </option>
  );
}

/** A labelled select with an "all" choice first; renders nothing when there is nothing to choose from. */
export function SelectField(props: {
  id: string;
  name: string;
  label: string;
  all: string;
  value: string | null | undefined;
  options: SelectOption[];
}): JSX.Element {
  if (props.options.length === 0) return '';
  return (
    <div class="field">
      <label for={props.id} safe>
        {props.label}
      </label>
      <select id={props.id} name={props.name}>
        <Option value="" selected={!props.value}>
          {props.all}
        </Option>
        {props.options.map((o) => (
          <Option value={o.value} selected={props.value === o.value}>
            {o.label}
          </Option>
        ))}
      </select>
    </div>
  );
}
