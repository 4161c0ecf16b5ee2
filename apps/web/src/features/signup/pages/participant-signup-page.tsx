import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { PARTICIPANT_SIGNUP_MESSAGES, participantSignupSchema } from '@trialwear/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import { CenteredCard } from '../../../components/centered-card';
import { displayableMessage } from '../../../lib/api-client';
import { signUpParticipant } from '../api/signup-api';

type Form = z.input<typeof participantSignupSchema>;

/** Participant self sign-up (design left open by the spec; see ARCHITECTURE.md). */
export default function ParticipantSignupPage() {
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<Form>({
    resolver: zodResolver(participantSignupSchema),
    defaultValues: { username: '', password: '', confirmPassword: '', email: '' },
  });
  const onSubmit = handleSubmit(async (values) => {
    setError(null);
    try {
      await signUpParticipant(values);
      setDone(true);
    } catch (err) {
      setError(displayableMessage(err, 'Signup failed. Please try again.'));
    }
  });
  return (
    <CenteredCard
      title="Participant sign-up"
      intro="For study participants. Staff accounts are created by approval."
    >
      {done ? (
        <Alert color="teal">{PARTICIPANT_SIGNUP_MESSAGES.received}</Alert>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <Stack>
            {error && <Alert color="red">{error}</Alert>}
            <TextInput
              label="Username"
              error={formState.errors.username?.message}
              {...register('username')}
            />
            <TextInput
              label="Email"
              type="email"
              error={formState.errors.email?.message}
              {...register('email')}
            />
            <PasswordInput
              label="Password"
              error={formState.errors.password?.message}
              {...register('password')}
            />
            <PasswordInput
              label="Confirm Password"
              error={formState.errors.confirmPassword?.message}
              {...register('confirmPassword')}
            />
            <Button type="submit" loading={formState.isSubmitting}>
              Sign up
            </Button>
          </Stack>
        </form>
      )}
      <Anchor component={Link} to="/ParticipantLoginPage" size="sm">
        Already have a participant account?
      </Anchor>
    </CenteredCard>
  );
}
