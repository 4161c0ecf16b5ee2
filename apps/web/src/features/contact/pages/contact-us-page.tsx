import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Card, Group, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { CONTACT_MESSAGES, type ContactForm, contactFormSchema, LIMITS, TIMINGS } from '@trialwear/contract';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { displayableMessage } from '../../../lib/api-client';
import { RecaptchaError, useRecaptcha } from '../../../lib/use-recaptcha';
import { sendContactMessage } from '../api/send-contact';

const EMPTY: ContactForm = { firstName: '', lastName: '', email: '', subject: '', message: '' };

export default function ContactUsPage() {
  const getToken = useRecaptcha();
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<ContactForm>({
    resolver: zodResolver(contactFormSchema),
    defaultValues: EMPTY,
    mode: 'onTouched',
  });
  const messageLength = watch('message')?.length ?? 0;

  // 'Message sent. Thank you!' hides after 5 s (core §9).
  useEffect(() => {
    if (!sent) return;
    const timer = setTimeout(() => setSent(false), TIMINGS.contactSuccessHideMs);
    return () => clearTimeout(timer);
  }, [sent]);

  const onSubmit = handleSubmit(async (values) => {
    setError(null);
    setSent(false);
    try {
      await sendContactMessage(values, await getToken('contact'));
      reset(EMPTY);
      setSent(true);
    } catch (err) {
      setError(
        err instanceof RecaptchaError ? err.message : displayableMessage(err, CONTACT_MESSAGES.failed),
      );
    }
  });

  return (
    <Stack align="center" py="md">
      <Card withBorder shadow="sm" radius="md" p="xl" w="100%" maw={560}>
        <form onSubmit={onSubmit} noValidate>
          <Stack>
            <div>
              <Title order={2}>Contact Us</Title>
              <Text c="dimmed" size="sm">
                Questions, access requests or sign-up: write to the TrialWear team.
              </Text>
            </div>
            {sent && (
              <Alert color="teal" role="status">
                {CONTACT_MESSAGES.sent}
              </Alert>
            )}
            {error && (
              <Alert color="red" role="alert">
                {error}
              </Alert>
            )}
            <Group grow align="flex-start">
              <TextInput
                label="First Name"
                autoComplete="given-name"
                error={errors.firstName?.message}
                {...register('firstName')}
              />
              <TextInput
                label="Last Name"
                autoComplete="family-name"
                error={errors.lastName?.message}
                {...register('lastName')}
              />
            </Group>
            <TextInput
              label="Email"
              type="email"
              autoComplete="email"
              error={errors.email?.message}
              {...register('email')}
            />
            <TextInput label="Subject" error={errors.subject?.message} {...register('subject')} />
            <Textarea
              label="Message"
              autosize
              minRows={5}
              maxLength={LIMITS.contactMessageMax}
              error={errors.message?.message}
              description={`${messageLength}/${LIMITS.contactMessageMax}`}
              {...register('message')}
            />
            <Group justify="flex-end">
              <Button type="submit" loading={isSubmitting}>
                Send
              </Button>
            </Group>
          </Stack>
        </form>
      </Card>
    </Stack>
  );
}
