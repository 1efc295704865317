// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type Ctor = Function;

const aliasesByClass = new Map<Ctor, Readonly<Record<string, string>>>();

/**
 * Other names a request may use for some of a DTO's fields (`{address1: 'line1'}`): the request is read as if
 * it had sent the field's own name. An alias is not an ignored field; an alias and its field both sent with
 * different values is a validation failure naming the field. Answers and stored data use the field's own name.
 */
export const FieldAliases =
  (aliases: Record<string, string>): ClassDecorator =>
  (target) => {
    aliasesByClass.set(target, Object.freeze({ ...aliases }));
  };

/** The aliases declared on a DTO class (none: an empty object). */
export const fieldAliasesOf = (type: Ctor): Readonly<Record<string, string>> => aliasesByClass.get(type) ?? {};
