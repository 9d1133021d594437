import { ValidationError } from '../../../domain/errors';
import { fillPlaceholders, hostOf, placeholdersIn, placeholderValues } from '../../../domain/outreach/placeholders';
import { templateDecider } from '../../../domain/outreach/template';

describe('placeholders', () => {
  it('finds, fills and derives values', () => {
    expect(placeholdersIn('Hi {first_name}, about {topic} on {website} and {topic}')).toEqual([
      'first_name',
      'topic',
      'website',
    ]);
    const v = placeholderValues({
      lead_name: 'Jane Doe',
      lead_website: 'https://www.garden.example/blog',
      content_topic: 'soil',
    });
    expect(v).toMatchObject({ first_name: 'Jane', website: 'garden.example', topic: 'soil', content_topic: 'soil' });
    expect(fillPlaceholders('Hi {first_name} of {website}, {unknown} {sender_name}', v)).toBe(
      'Hi Jane of garden.example, {unknown} {sender_name}',
    );
    expect(hostOf('example.org/path')).toBe('example.org');
  });

  it('a template with unknown placeholders is refused, each one named', () => {
    const create = (subject: string, body: string) =>
      templateDecider.decide(
        { kind: 'create', template_id: 't', user_id: 'u', name: 'n', subject, body, category: null },
        templateDecider.initialState,
      );
    expect(create('Hello {first_name}', 'About {topic}')).toMatchObject([
      { type: 'OutreachTemplateCreated', data: { placeholders: ['first_name', 'topic'] } },
    ]);
    let err: ValidationError | undefined;
    try {
      create('Hi {firstname}', 'On {site} and {topic}');
    } catch (e) {
      err = e as ValidationError;
    }
    expect(err).toBeInstanceOf(ValidationError);
    expect(err!.issues.map((i) => [i.path, i.message.split(';')[0]])).toEqual([
      ['subject', 'unknown placeholder {firstname} in subject'],
      ['body', 'unknown placeholder {site} in body'],
    ]);
  });
});
